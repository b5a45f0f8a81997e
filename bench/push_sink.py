"""A push service that accepts everything (201) and counts, for `bench/load.py --push`:
`python -m bench.push_sink --port 8099`. It neither decrypts nor checks (the tests' push
service does, tests/push_service.py): it stands for a push service's answer, so that the
server's sender does all its real work (encryption, VAPID signature, the HTTP request)."""

from __future__ import annotations

import argparse

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

received = 0


async def push(request: Request) -> Response:
    global received
    await request.body()
    received += 1
    return Response(status_code=201)


async def count(_request: Request) -> Response:
    return PlainTextResponse(str(received))


app = Starlette(
    routes=[Route("/p/{name}", push, methods=["POST"]), Route("/count", count, methods=["GET"])]
)

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8099)
    uvicorn.run(app, host="127.0.0.1", port=parser.parse_args().port, log_level="warning")
