"""Prometheus metrics (prometheus-client), one registry per app.

Served at `/metrics` only when `METRICS_TOKEN` is set, to a request carrying
`Authorization: Bearer <token>` (a public server must not show its traffic to everyone).
Counted where things happen: moves applied (by game) and refused (by code), the time from a
received act to its broadcast, database transaction time of a move; sampled at scrape time:
open sockets (seat, spectator, lobby) and live tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from app.table import Tables

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

    def watch(self, tables: Callable[[], Tables | None]) -> None:
        """Sample the live tables and their sockets at every scrape."""
        self.registry.register(_LiveCollector(tables))


class _LiveCollector(Collector):
    def __init__(self, tables: Callable[[], Tables | None]) -> None:
        self.tables = tables

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = self.tables()
        sockets = GaugeMetricFamily(
            "stolik_open_sockets", "Open websockets, by kind", labels=["kind"]
        )
        live = GaugeMetricFamily("stolik_live_hubs", "Tables held in memory")
        seats = spectators = lobby = rooms = 0
        if tables is not None:
            rooms = len(tables.live())
            lobby = len(tables.lobby)
            for table in tables.live():
                for conn in list(table.presence.connections):
                    if table.seat_of(conn.user_id) is None:
                        spectators += 1
                    else:
                        seats += 1
        sockets.add_metric(["seat"], seats)
        sockets.add_metric(["spectator"], spectators)
        sockets.add_metric(["lobby"], lobby)
        live.add_metric([], rooms)
        yield sockets
        yield live
