"""Prometheus metrics (prometheus-client), one registry per app.

Served at `/metrics` only when `METRICS_TOKEN` is set, to a request carrying
`Authorization: Bearer <token>` (a public server must not show its traffic to everyone).
Counted where things happen: moves applied (by game) and refused (by code), the time from a
received act to its broadcast, database transaction time of a move; sampled at scrape time:
open sockets (seat, spectator, lobby) and live tables; and, with several processes, the bus:
Redis messages read (on tables' channels and the lobby-wide one), changes published, tables
whose channel is subscribed (`bench.scaling` reads them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The app's metrics."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter(
            "stolik_moves_applied", "Moves applied and stored", ["game"], registry=self.registry
        )
        self.refused = Counter(
            "stolik_messages_refused",
            "Messages and requests refused, by code",
            ["code"],
            registry=self.registry,
        )
        self.pushes = Counter(
            "stolik_pushes",
            "Web Push rows settled by this process's sender, by outcome (sent, stale, gone, "
            "dropped, later)",
            ["outcome"],
            registry=self.registry,
        )
        self.act_latency = Histogram(
            "stolik_act_to_broadcast_seconds",
            "From a received act to its new state handed to every connection",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.db_time = Histogram(
            "stolik_move_transaction_seconds",
            "Database transaction time of storing one move",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    def watch(self, sample: Callable[[], Live]) -> None:
        """Sample the live tables and their sockets (`sample`) at every scrape."""
        self.registry.register(_LiveCollector(sample))

    def watch_bus(self, bus: Any) -> None:
        """Sample the bus's counters (a `RedisBus`) at every scrape."""
        self.registry.register(_BusCollector(bus))


class Live(NamedTuple):
    """What a process holds now: live tables, and open sockets by kind."""

    tables: int
    seats: int
    spectators: int
    lobby: int


class _LiveCollector(Collector):
    def __init__(self, sample: Callable[[], Live]) -> None:
        self.sample = sample

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = self.sample()
        sockets = GaugeMetricFamily(
            "stolik_open_sockets", "Open websockets, by kind", labels=["kind"]
        )
        # The metric keeps its first name ("hubs") so that dashboards keep working.
        live = GaugeMetricFamily("stolik_live_hubs", "Tables held in memory")
        sockets.add_metric(["seat"], now.seats)
        sockets.add_metric(["spectator"], now.spectators)
        sockets.add_metric(["lobby"], now.lobby)
        live.add_metric([], now.tables)
        yield sockets
        yield live


class _BusCollector(Collector):
    def __init__(self, bus: Any) -> None:
        self.bus = bus

    def collect(self) -> Iterator[GaugeMetricFamily]:
        bus = self.bus
        read = GaugeMetricFamily(
            "stolik_bus_messages_read",
            "Redis messages this process read, own included, by channel (table or lobby)",
            labels=["channel"],
        )
        read.add_metric(["table"], sum(bus.heard.values()))
        read.add_metric(["lobby"], bus.heard_lobby)
        yield read
        changes = GaugeMetricFamily(
            "stolik_bus_changes", "Changes published and received from others", labels=["way"]
        )
        changes.add_metric(["published"], bus.published)
        changes.add_metric(["received"], bus.received)
        yield changes
        watching = GaugeMetricFamily(
            "stolik_bus_tables_watched", "Tables whose channel this process is subscribed to"
        )
        watching.add_metric([], len(bus.watching))
        yield watching
