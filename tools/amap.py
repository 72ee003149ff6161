"""Location and weather tools on the AMAP (高德) web service API: IP location, place search, forecasts."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import re
from typing import Any

import requests
from langchain_core.tools import BaseTool, tool

AMAP_URL = "https://restapi.amap.com/v3"
AMAP_TIMEOUT_SECONDS = 10.0
MAX_PLACES = 5
# What the commonest AMAP infocodes mean for whoever reads the observation.
_INFOCODES = {
    "10001": "the AMAP key is invalid (check AMAP_API_KEY)",
    "10003": "the AMAP key has used up its daily quota; try again tomorrow",
    "10004": "AMAP is rate-limiting this key; wait a moment and try again",
    "10009": "the AMAP key is not a Web Service (Web服务) key",
    "10044": "the AMAP key has used up its daily quota; try again tomorrow",
    "20000": "AMAP rejected the request's parameters",
}


class AmapError(Exception):
    """The AMAP API could not be reached or answered with an error."""


class AmapClient:
    """Calls to the AMAP v3 web service API with one key."""

    def __init__(self, key: str, *, base_url: str = AMAP_URL, timeout: float = AMAP_TIMEOUT_SECONDS) -> None:
        self.key, self.base_url, self.timeout = key, base_url.rstrip("/"), timeout

    def get(self, endpoint: str, **params: str) -> dict[str, Any]:
        """The JSON answer of endpoint (e.g. "ip"); AmapError for network and API errors."""
        try:
            response = requests.get(
                f"{self.base_url}/{endpoint}", params={**params, "key": self.key}, timeout=self.timeout
            )
        except requests.Timeout:
            raise AmapError(f"AMAP did not answer within {self.timeout:g} s; try again later") from None
        except requests.RequestException as error:  # the message holds the URL, key included
            raise AmapError(f"could not reach AMAP: {type(error).__name__}") from None
        try:
            data = response.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise AmapError(f"AMAP answered HTTP {response.status_code} without JSON")
        if str(data.get("status")) != "1":
            code, info = str(data.get("infocode", "")), str(data.get("info", "unknown error"))
            meaning = _INFOCODES.get(code, "AMAP returned an error")
            raise AmapError(f"{meaning} ({info}, infocode {code})")
        return data


def _text(value: Any) -> str:
    """An AMAP field as text: it sends [] for a missing value."""
    return value if isinstance(value, str) else ""


def amap_tools(key: str, *, base_url: str = AMAP_URL, timeout: float = AMAP_TIMEOUT_SECONDS) -> list[BaseTool]:
    """current_location, search_place and weather_forecast, calling AMAP with key."""
    client = AmapClient(key, base_url=base_url, timeout=timeout)

    @tool(parse_docstring=True)
    def current_location() -> str:
        """This computer's approximate location (province, city, adcode) from its IP address; mainland China only."""
        data = client.get("ip")
        province, city, adcode = _text(data.get("province")), _text(data.get("city")), _text(data.get("adcode"))
        if not adcode:
            return "AMAP could not place this computer's IP address (it only locates addresses in mainland China)."
        return f"Province: {province}\nCity: {city}\nAdcode: {adcode}"

    @tool(parse_docstring=True)
    def search_place(keywords: str, city: str = "") -> str:
        """Find places in China by name or keyword; returns each one's name, address, adcode and coordinates.

        Args:
            keywords: A place name or keyword, e.g. "北京大学" or "咖啡".
            city: A city name or adcode to search in; empty searches all of China.
        """
        if not keywords.strip():
            raise ValueError("keywords is empty; give a place name or keyword")
        data = client.get("place/text", keywords=keywords.strip(), city=city.strip(), offset=str(MAX_PLACES), page="1")
        places = [place for place in data.get("pois") or [] if isinstance(place, dict)][:MAX_PLACES]
        if not places:
            return f"AMAP found no place matching {keywords!r}" + (f" in {city!r}." if city.strip() else ".")
        return "\n".join(
            f"{n}. {_text(p.get('name'))} — {_text(p.get('pname'))}{_text(p.get('cityname'))}"
            f"{_text(p.get('adname'))} {_text(p.get('address'))}; adcode {_text(p.get('adcode'))}; "
            f"location {_text(p.get('location'))}"
            for n, p in enumerate(places, 1)
        )

    @tool(parse_docstring=True)
    def weather_forecast(adcode: str) -> str:
        """The weather forecast for the next few days in a Chinese city or district, by its adcode.

        Args:
            adcode: The 6-digit administrative code, e.g. "110000" for Beijing (search_place gives it).
        """
        if not re.fullmatch(r"\d{6}", adcode.strip()):
            raise ValueError(f"{adcode!r} is not an adcode (6 digits); use search_place to find one")
        data = client.get("weather/weatherInfo", city=adcode.strip(), extensions="all")
        forecasts = [item for item in data.get("forecasts") or [] if isinstance(item, dict)]
        if not forecasts or not forecasts[0].get("casts"):
            return f"AMAP has no forecast for adcode {adcode.strip()}."
        place = forecasts[0]
        where = f"{_text(place.get('province'))} {_text(place.get('city'))}"
        lines = [f"{where}, reported {_text(place.get('reporttime'))}"]
        for cast in place["casts"]:
            lines.append(
                f"{_text(cast.get('date'))}: day {_text(cast.get('dayweather'))} {_text(cast.get('daytemp'))}°C, "
                f"night {_text(cast.get('nightweather'))} {_text(cast.get('nighttemp'))}°C, "
                f"wind {_text(cast.get('daywind'))} {_text(cast.get('daypower'))}"
            )
        return "\n".join(lines)

    made = [current_location, search_place, weather_forecast]
    for each in made:
        each.metadata = {"side_effects": False}
    return made
