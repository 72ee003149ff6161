"""The AMAP location and weather tools against a fake AMAP v3 API served on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.tools import BaseTool

from autoagent.tools.amap import AmapError, amap_tools

from .test_web_fakes import LocalSite, Reply

KEY = "amap-secret-456"
BEIJING_IP = {
    "status": "1",
    "info": "OK",
    "infocode": "10000",
    "province": "北京市",
    "city": "北京市",
    "adcode": "110000",
}
POIS = [
    {"name": "北京大学", "pname": "北京市", "cityname": "北京市", "adname": "海淀区", "address": "颐和园路5号",
     "adcode": "110108", "location": "116.310003,39.991957"},
    {"name": "北京大学医院", "pname": "北京市", "cityname": "北京市", "adname": "海淀区", "address": [],
     "adcode": "110108", "location": "116.30,39.99"},
]  # fmt: skip
CASTS = [
    {"date": "2025-03-05", "dayweather": "晴", "nightweather": "多云", "daytemp": "12", "nighttemp": "1",
     "daywind": "北", "daypower": "1-3"},
    {"date": "2025-03-06", "dayweather": "小雨", "nightweather": "阴", "daytemp": "8", "nighttemp": "2",
     "daywind": "东", "daypower": "≤3"},
]  # fmt: skip


def ok(**fields: Any) -> Reply:
    return Reply(
        json.dumps({"status": "1", "info": "OK", "infocode": "10000", **fields}), content_type="application/json"
    )


@pytest.fixture
def amap() -> Iterator[LocalSite]:
    with LocalSite() as site:
        site.add("/v3/ip", Reply(json.dumps(BEIJING_IP), content_type="application/json"))
        site.add("/v3/place/text", lambda query: ok(count="2", pois=POIS if query["keywords"] == ["北京大学"] else []))
        site.add(
            "/v3/weather/weatherInfo",
            ok(
                forecasts=[
                    {
                        "province": "北京",
                        "city": "北京市",
                        "adcode": "110000",
                        "reporttime": "2025-03-05 08:00:00",
                        "casts": CASTS,
                    }
                ]
            ),
        )
        yield site


@pytest.fixture
def tools(amap: LocalSite) -> dict[str, BaseTool]:
    return {made.name: made for made in amap_tools(KEY, base_url=amap.url("/v3"), timeout=2)}


def test_tools_are_named_read_only_and_described(tools: dict[str, BaseTool]) -> None:
    assert list(tools) == ["current_location", "search_place", "weather_forecast"]
    assert all(made.metadata == {"side_effects": False} for made in tools.values())
    assert "adcode" in tools["weather_forecast"].description


def test_current_location_sends_the_key(tools: dict[str, BaseTool], amap: LocalSite) -> None:
    assert tools["current_location"].invoke({}) == "Province: 北京市\nCity: 北京市\nAdcode: 110000"
    assert amap.queries[-1] == {"key": [KEY]}


def test_current_location_outside_china(tools: dict[str, BaseTool], amap: LocalSite) -> None:
    amap.add("/v3/ip", ok(province=[], city=[], adcode=[], rectangle=[]))
    assert "only locates addresses in mainland China" in tools["current_location"].invoke({})


def test_search_place_lists_adcodes(tools: dict[str, BaseTool], amap: LocalSite) -> None:
    result = tools["search_place"].invoke({"keywords": "北京大学", "city": "北京"})
    assert result.splitlines() == [
        "1. 北京大学 — 北京市北京市海淀区 颐和园路5号; adcode 110108; location 116.310003,39.991957",
        "2. 北京大学医院 — 北京市北京市海淀区 ; adcode 110108; location 116.30,39.99",
    ]
    assert amap.queries[-1]["city"] == ["北京"] and amap.queries[-1]["offset"] == ["5"]
    assert tools["search_place"].invoke({"keywords": "nowhere"}) == "AMAP found no place matching 'nowhere'."
    with pytest.raises(ValueError, match="keywords is empty"):
        tools["search_place"].invoke({"keywords": " "})


def test_weather_forecast_by_adcode(tools: dict[str, BaseTool], amap: LocalSite) -> None:
    result = tools["weather_forecast"].invoke({"adcode": "110000"})
    assert result.splitlines() == [
        "北京 北京市, reported 2025-03-05 08:00:00",
        "2025-03-05: day 晴 12°C, night 多云 1°C, wind 北 1-3",
        "2025-03-06: day 小雨 8°C, night 阴 2°C, wind 东 ≤3",
    ]
    assert amap.queries[-1] == {"city": ["110000"], "extensions": ["all"], "key": [KEY]}
    with pytest.raises(ValueError, match="not an adcode"):
        tools["weather_forecast"].invoke({"adcode": "Beijing"})


@pytest.mark.parametrize(
    ("infocode", "info", "message"),
    [
        ("10001", "INVALID_USER_KEY", r"the AMAP key is invalid \(check AMAP_API_KEY\) \(INVALID_USER_KEY"),
        ("10003", "DAILY_QUERY_OVER_LIMIT", "daily quota"),
        ("10004", "ACCESS_TOO_FREQUENT", "rate-limiting"),
        ("30001", "ENGINE_RESPONSE_DATA_ERROR", r"AMAP returned an error \(ENGINE_RESPONSE_DATA_ERROR, infocode 30001"),
    ],
)
def test_api_errors_are_explained(
    tools: dict[str, BaseTool], amap: LocalSite, infocode: str, info: str, message: str
) -> None:
    amap.add("/v3/ip", Reply(json.dumps({"status": "0", "info": info, "infocode": infocode})))
    with pytest.raises(AmapError, match=message) as caught:
        tools["current_location"].invoke({})
    assert KEY not in str(caught.value)


def test_network_failures_are_explained(tools: dict[str, BaseTool], amap: LocalSite) -> None:
    amap.add("/v3/weather/weatherInfo", Reply("<html>Bad gateway</html>", status=502), delay=0)
    with pytest.raises(AmapError, match="AMAP answered HTTP 502 without JSON"):
        tools["weather_forecast"].invoke({"adcode": "110000"})
    amap.add("/v3/ip", ok(), delay=3)
    with pytest.raises(AmapError, match="AMAP did not answer within 2 s"):
        tools["current_location"].invoke({})
    with LocalSite() as gone:
        closed = gone.url("/v3")
    (location, *_) = amap_tools(KEY, base_url=closed)
    with pytest.raises(AmapError, match="could not reach AMAP: ConnectionError") as caught:
        location.invoke({})
    assert KEY not in str(caught.value)
