"""Numbers a request writes in words ("thirty-four", "一百零七"), as digits: what the request gives counts as
given however it is written, so a call on 12 and 34 is founded on "Multiply twelve by thirty-four", and its
result grounds the answer. Read by well-kept libraries, text2num (English and other European languages)
and cn2an (Chinese); only grounding reads them, so a number words give is never asked to be used."""

from __future__ import annotations

import logging
from functools import lru_cache

from text_to_num import alpha2digit

logger = logging.getLogger(__name__)
_HAN_NUMERALS = set("零〇一二两三四五六七八九十百千万亿")


@lru_cache(maxsize=256)
def in_digits(text: str) -> str:
    """`text` with the numbers it writes in words written in digits (as it stands where it writes none)."""
    converted = alpha2digit(text, "en") if text.isascii() or any(c.isascii() and c.isalpha() for c in text) else text
    if _HAN_NUMERALS & set(converted):
        import cn2an  # only for text with Chinese numerals: it is slower to import than to use

        try:
            converted = cn2an.transform(converted, "cn2an")
        except (ValueError, KeyError, IndexError) as err:  # a numeral it cannot read: the words stand as written
            logger.debug("cn2an could not read %r: %s", converted, err)
    return converted
