"""A push service for the tests (RFC 8030), served by uvicorn on a loopback port: it makes
subscriptions (a P-256 key pair and an auth secret per endpoint, as a browser would), checks
each push's VAPID token (ES256 signature with the key it names, audience = this service's
origin, not expired, a contact), decrypts the aes128gcm body with the subscription's private
key (`http_ece`, the field's library) and answers 201 — or what a test asked for (404, 410,
429 with Retry-After, or a hold that never answers)."""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any

import http_ece
import uvicorn
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Subscription:
    """What a browser keeps of one subscription (its private key) and hands the server."""

    token: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        raw = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64(raw)

    def as_json(self) -> dict[str, Any]:
        """`PushSubscription.toJSON()` of a browser."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)}}


@dataclass
class Received:
    """One push as the service decrypted it."""

    token: str
    payload: dict[str, Any]
    headers: dict[str, str]
    claims: dict[str, Any]
    vapid_key: str


@dataclass
class PushService:
    """The service's state: subscriptions, what it received, and planned answers."""

    url: str = ""
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    answers: dict[str, deque[int]] = field(default_factory=lambda: defaultdict(deque))
    attempts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    hold: set[str] = field(default_factory=set)
    """Tokens whose pushes are received and then never answered (a sender killed mid-send)."""
    refused: list[str] = field(default_factory=list)
    """Why pushes were refused (a bad token, audience or body): tests assert it is empty."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    """Set: held pushes are answered (503) and forgotten."""

    def subscribe(self) -> Subscription:
        token = secrets.token_urlsafe(12)
        sub = Subscription(
            token,
            f"{self.url}/push/{token}",
            ec.generate_private_key(ec.SECP256R1()),
            secrets.token_bytes(16),
        )
        self.subscriptions[token] = sub
        return sub

    def answer(self, sub: Subscription, *statuses: int) -> None:
        """Answer the next pushes to `sub` with `statuses` (then 201)."""
        self.answers[sub.token].extend(statuses)

    def of(self, sub: Subscription) -> list[Received]:
        return [r for r in self.received if r.token == sub.token]

    async def wait(self, count: int, timeout: float = 10.0) -> list[Received]:
        """Wait until `count` pushes were delivered (answered 201)."""

        async def loop() -> None:
            while len(self.received) < count:
                self.changed.clear()
                await self.changed.wait()

        try:
            await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"{len(self.received)} pushes of {count}: {self.received}, tried "
                f"{dict(self.attempts)}, refused {self.refused}"
            ) from None
        return self.received

    def _check_vapid(self, header: str) -> tuple[dict[str, Any], str]:
        scheme, _, rest = header.partition(" ")
        assert scheme == "vapid", header
        parts = dict(p.strip().split("=", 1) for p in rest.split(","))
        token, key = parts["t"], parts["k"]
        signed, _, signature = token.rpartition(".")
        head = json.loads(unb64(signed.split(".")[0]))
        assert head["alg"] == "ES256", head
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        public.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))  # InvalidSignature
        claims: dict[str, Any] = json.loads(unb64(signed.split(".")[1]))
        assert claims["aud"] == self.url, claims
        assert claims["exp"] > time.time(), claims
        assert claims["sub"].startswith(("mailto:", "https://")), claims
        return claims, key

    async def receive(self, request: Request) -> Response:
        token = request.path_params["token"]
        self.attempts[token] += 1
        sub = self.subscriptions.get(token)
        if sub is None:
            return Response(status_code=404)
        body = await request.body()
        try:
            claims, key = self._check_vapid(request.headers.get("authorization", ""))
            assert request.headers.get("content-encoding") == "aes128gcm"
            assert int(request.headers["ttl"]) >= 0
            plain = http_ece.decrypt(
                body, private_key=sub.private_key, auth_secret=sub.auth, version="aes128gcm"
            )
        except (AssertionError, InvalidSignature, KeyError, ValueError) as exc:
            self.refused.append(repr(exc))
            return Response(status_code=400)
        if token in self.hold:
            self.changed.set()
            await self.released.wait()
            return Response(status_code=503)  # to a sender that is gone: never counted
        planned = self.answers[token]
        status = planned.popleft() if planned else 201
        if status == 201:
            self.received.append(
                Received(token, json.loads(plain), dict(request.headers), claims, key)
            )
        self.changed.set()
        headers = {"Retry-After": "1"} if status == 429 else {}
        return Response(status_code=status, headers=headers)


@dataclass
class Served:
    service: PushService
    server: uvicorn.Server
    task: asyncio.Task[None]

    async def stop(self) -> None:
        self.service.released.set()
        self.server.should_exit = True
        self.server.force_exit = True
        await asyncio.wait_for(self.task, 10)


async def start_push_service() -> Served:
    """The push service on a loopback port of this event loop."""
    service = PushService()
    app = Starlette(routes=[Route("/push/{token}", service.receive, methods=["POST"])])
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(200):
        if server.started:
            break
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    service.url = f"http://127.0.0.1:{port}"
    return Served(service, server, task)
