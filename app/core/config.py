"""Server settings, read from the environment (prefix-free names, e.g. DATABASE_URL)."""

from __future__ import annotations

import secrets
from functools import cached_property
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent.parent


class Settings(BaseSettings):
    """Everything an operator may configure. The defaults run the embedded setup."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    data_dir: Path = Field(default=ROOT / "data", description="SQLite file and the secret key")
    database_url: str = Field(
        default="",
        description="SQLAlchemy async URL; empty means a SQLite file in data_dir",
    )
    db_pool_size: int = Field(
        default=20, description="PostgreSQL connections each process keeps open"
    )
    db_max_overflow: int = Field(
        default=20, description="Extra PostgreSQL connections a busy process may open"
    )
    secret_key: str = Field(default="", description="Cookie signing key; empty: kept in data_dir")
    auto_migrate: bool = Field(default=True, description="Run `alembic upgrade head` at startup")
    max_message_bytes: int = Field(default=4096, description="Largest websocket message accepted")
    log_tail: int = 200
    chat_max_chars: int = Field(default=300, description="Longest chat line accepted")
    chat_rate_count: int = Field(default=5, description="Chat lines a person may send per window")
    chat_rate_window: float = Field(default=10.0, description="Chat rate-limit window, seconds")
    cookie_secure: bool = False
    bot_delay: float = Field(default=0.8, description="Seconds a bot waits before it moves")
    bot_think_scale: float = Field(
        default=1.0, description="Multiplies every bot level's search budget (tests: small)"
    )
    review: bool = Field(
        default=True, description="Review finished games by the bots in the background"
    )
    review_queue: int = Field(default=100, description="Most games waiting for their review")
    review_steps: int = Field(
        default=250_000, description="Engine steps of search per game's review (all seats)"
    )
    review_cpu_seconds: float = Field(
        default=240.0, description="CPU seconds after which a game's review is given up"
    )
    takeover_after: float = Field(
        default=60.0,
        description="Seconds a player must be disconnected before the host may "
        "hand their seat to a bot",
    )
    clock_tick: float = Field(default=1.0, description="Seconds between turn-clock checks")
    public_origins: str = Field(
        default="",
        description="Comma-separated origins the site is served at (https://stolik.example); "
        "empty: the origin must name the request's own host",
    )
    act_rate_count: int = Field(
        default=100,
        description="Messages one table socket, and one person's sockets together, may "
        "send per window (0: no limit)",
    )
    act_rate_window: float = Field(default=20.0, description="Act rate-limit window, seconds")
    act_rate_close: int = Field(
        default=100,
        description="Messages past the budget (within one window) after which the socket "
        "is closed with 4429",
    )
    act_rate_address_count: int = Field(
        default=400,
        description="Messages the table sockets of one address may send per act window, "
        "all together (0: no limit)",
    )
    ws_send_timeout: float = Field(
        default=15.0,
        description="Seconds a push may wait for a client that does not read before its "
        "socket is closed as too slow (4408)",
    )
    ws_close_timeout: float = Field(
        default=5.0,
        description="Seconds a closing socket may wait for its client before its connection "
        "is aborted",
    )
    ws_send_buffer: int = Field(
        default=65536,
        description="Kernel send buffer asked for each websocket, bytes (0: the kernel's "
        "own, which grows to megabytes for a client that does not read)",
    )
    create_rate_count: int = Field(
        default=30,
        description="Guests, and tables, one address may create per window (0: no limit)",
    )
    create_rate_window: float = Field(
        default=600.0, description="Creation rate-limit window, seconds"
    )

    smtp_host: str = Field(
        default="", description="SMTP server that sends e-mail sign-in links; empty: e-mail off"
    )
    smtp_port: int = Field(default=587, description="SMTP server port")
    smtp_username: str = Field(default="", description="SMTP login; empty: none")
    smtp_password: str = Field(default="", description="SMTP password")
    smtp_security: str = Field(
        default="starttls",
        description="How the SMTP connection is protected: starttls, tls (implicit) or none",
    )
    mail_rate_count: int = Field(
        default=5,
        description="Sign-in e-mails one address may ask for, and one mailbox may get, per "
        "window (0: no limit)",
    )
    mail_rate_window: float = Field(default=900.0, description="E-mail rate-limit window, seconds")
    mail_from: str = Field(
        default="Stolik <stolik@localhost>", description="The From address of sign-in e-mails"
    )

    redis_url: str = Field(
        default="",
        description="Redis for several server processes (redis://host:6379/0); empty: one "
        "process, nothing published",
    )
    redis_channel: str = Field(
        default="stolik:rooms",
        description="The lobby-wide pub/sub channel processes share; each table's changes go "
        "on `<channel>:t:<slug>`",
    )
    follower_grace: float = Field(
        default=5.0,
        description="Extra seconds a process that did not make a table's last change waits "
        "before moving for its bots or clocks",
    )
    hub_evict_after: float = Field(
        default=600.0, description="Seconds a table nobody uses stays in memory"
    )

    push: bool = Field(
        default=True,
        description="Web Push notifications (your turn, game over…) to the devices that "
        "turned them on; off: nothing is sent and the page offers none",
    )
    push_vapid_key: str = Field(
        default="",
        description="The VAPID private key (PEM, or the path of one); empty: generated once "
        "into data_dir/vapid_private.pem",
    )
    push_contact: str = Field(
        default="",
        description="The contact push services see in the VAPID claim (mailto: or https: URL); "
        "empty: the first of PUBLIC_ORIGINS, else mailto:stolik@example.org",
    )
    push_lease: float = Field(
        default=60.0,
        description="Seconds a sender holds a push it is sending; a process killed mid-send "
        "leaves it to another after this",
    )
    push_insecure_endpoints: bool = Field(
        default=False,
        description="Accept http:// push endpoints (tests with a local push service only)",
    )
    push_poll: float = Field(default=1.0, description="Seconds between two looks at the outbox")

    metrics_token: str = Field(
        default="", description="Bearer token that opens /metrics; empty: /metrics is off"
    )
    log_format: str = Field(default="text", description="Log lines as `text` or `json`")
    log_level: str = Field(default="info", description="debug, info, warning or error")

    @property
    def origins(self) -> list[str]:
        """The configured public origins."""
        return [o.strip() for o in self.public_origins.split(",") if o.strip()]

    @property
    def push_subject(self) -> str:
        """The VAPID `sub` claim."""
        if self.push_contact:
            return self.push_contact
        https = [o for o in self.origins if o.startswith("https://")]
        return https[0] if https else "mailto:stolik@example.org"

    @cached_property
    def resolved_database_url(self) -> str:
        """The database URL, defaulting to the embedded SQLite file."""
        if self.database_url:
            url = self.database_url
            # Accept the plain forms operators usually have and pick the async drivers.
            if url.startswith("postgres://"):
                url = "postgresql+asyncpg://" + url.removeprefix("postgres://")
            elif url.startswith("postgresql://"):
                url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
            elif url.startswith("sqlite:///"):
                url = "sqlite+aiosqlite:///" + url.removeprefix("sqlite:///")
            return url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{self.data_dir / 'stolik.db'}"

    @cached_property
    def resolved_secret_key(self) -> str:
        """The signing key; generated once and kept in data_dir when not configured."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret_key"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(32))
            path.chmod(0o600)
        return path.read_text().strip()
