'use strict';
// Issue 37's side-by-side method (bench/lockstep.py) against boardgame.io 0.50: N Incan Gold
// matches played in lockstep by an independent client. Start bench/bgio/server.js, then
//
//   node bench/bgio/lockstep.js --url http://127.0.0.1:8500 --tables 100 --server-pid PID
//
// What it does (the same steps and printed figures as bench/lockstep.py):
// 1. Set-up, timed, every table at once: through boardgame.io's Lobby API a 4-player match
//    (POST /games/incan_gold/create) and 4 joins (POST .../join, one after the other: the
//    Lobby API's join reads and writes the match's metadata, so joins of one match at once
//    lose each other's seat); then 5 socket.io sockets one after the other, each sending
//    boardgame.io's `sync` as its SocketIO transport does: the 4 players with their
//    credentials and 1 spectator (no playerID). A table is set up when all 5 hold the state.
//    boardgame.io has no "start": a match is playing from its creation.
// 2. Play, lockstep: a table moves on only when its 5 clients hold the same `_stateID` V.
//    Then every seat that is an active player (Incan Gold's simultaneous decision: the seats
//    still in the temple) sends a uniformly random torch/camp as boardgame.io's client does
//    (`update`: MAKE_MOVE with its credentials, stateID V); the step is done when all 5
//    clients hold V + the moves sent. A table stops at --moves moves (a random subset acts
//    when fewer remain). A game that ends sooner is followed by a new match for that table
//    inside the window, boardgame.io's own "play again": the first seat POSTs
//    .../playAgain, the 4 players join the next match, 5 sockets reopen.
//    boardgame.io answers no refusal (it logs it and drops the move): a step that stalls
//    asks every socket for a `sync` once, then counts the moves that arrived or fails.
// 3. Figures: the window runs from the end of set-up until the last table made its moves.
//    moves/s, server CPU per move (utime+stime of --server-pid from /proc over the window),
//    set-up seconds, p50/p99 act -> all 5 clients, server CPU per table set up, its idle
//    rate before set-up and with the tables open before the first act, the clients' CPU and
//    the load average.
// The tables are split over --procs client processes (node is single-threaded): each runs
// its share of the tables; the parent times the phases and sums the figures.
//
// Sockets are websocket-only (transports: ['websocket']): boardgame.io's client would start
// with long polling and upgrade; Stolik's clients open a websocket directly.

const { fork } = require('child_process');
const fs = require('fs');
const http = require('http');
const os = require('os');
const { io } = require('socket.io-client');

const GAME = 'incan_gold';
const SEATS = 4;
const SPECTATORS = 1;

function parseArgs(argv) {
  const opts = {
    url: 'http://127.0.0.1:8500',
    tables: 100,
    moves: 60,
    serverPid: 0,
    procs: 1,
    timeout: 60,
    maxSeconds: 900,
    seed: 1,
    idleSeconds: 5,
    httpConnections: 50,
  };
  const names = {
    '--url': 'url', '--tables': 'tables', '--moves': 'moves', '--server-pid': 'serverPid',
    '--procs': 'procs', '--timeout': 'timeout', '--max-seconds': 'maxSeconds', '--seed': 'seed',
    '--idle-seconds': 'idleSeconds', '--http-connections': 'httpConnections',
  };
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--help' || argv[i] === '-h') {
      console.log(`usage: node lockstep.js ${Object.keys(names).map((n) => `[${n} X]`).join(' ')}`);
      process.exit(0);
    }
    const key = names[argv[i]];
    if (!key) throw new Error(`unknown argument ${argv[i]}`);
    const v = argv[++i];
    opts[key] = key === 'url' ? v.replace(/\/$/, '') : Number(v);
  }
  return opts;
}

// ---- a tiny seeded PRNG (mulberry32): each table draws its own sequence --------------------
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Failed extends Error {}

// The Lobby API's requests share a pool of keep-alive connections (--http-connections per
// client process): thousands of fresh connections at once overflowed the server's accept queue.
let agent = null;

const now = () => performance.now() / 1000;

function cpuSeconds(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // CLK_TCK is 100 on Linux
}

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

const loadAverage = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));

// ---- the worker: a share of the tables -----------------------------------------------------

class Client {
  constructor(table, seat, credentials) {
    this.table = table;
    this.seat = seat; // null: the spectator
    this.credentials = credentials;
    this.version = -1;
    this.ctx = null;
    this.reached = null;
    this.closed = null;
    const matchID = table.matchID;
    this.socket = io(`${table.run.url}/${GAME}`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      timeout: table.run.timeout * 1000,
    });
    this.socket.on('connect', () => {
      this.sync();
      this.table.changed();
    });
    this.socket.on('sync', (id, info) => id === matchID && this.receive(info.state));
    this.socket.on('update', (id, state) => id === matchID && this.receive(state));
    this.socket.on('connect_error', (err) => this.close(`socket open: ${err.message}`));
    this.socket.on('disconnect', (why) => this.close(`socket closed (${why})`));
  }

  sync() {
    const playerID = this.seat === null ? null : String(this.seat);
    this.socket.emit('sync', this.table.matchID, playerID, this.credentials, SEATS);
  }

  receive(state) {
    if (state._stateID < this.version) return;
    this.version = state._stateID;
    this.ctx = state.ctx;
    if (this.reached === null && this.version >= this.table.target) this.reached = now();
    this.table.changed();
  }

  get legal() {
    if (this.seat === null || !this.ctx || this.ctx.gameover) return [];
    const active = this.ctx.activePlayers;
    return active && active[String(this.seat)] !== undefined ? ['torch', 'camp'] : [];
  }

  act(move, version) {
    const playerID = String(this.seat);
    const action = {
      type: 'MAKE_MOVE',
      payload: { type: move, args: [], playerID, credentials: this.credentials },
    };
    this.socket.emit('update', action, version, this.table.matchID, playerID);
  }

  close(why) {
    if (this.closed === null && !this.table.closing) this.closed = why;
    this.table.changed();
  }

  shut() {
    this.socket.removeAllListeners();
    this.socket.close();
  }
}

class Table {
  constructor(run, index) {
    this.run = run;
    this.index = index;
    this.rand = rng(run.seed * 1000003 + index);
    this.matchID = '';
    this.credentials = [];
    this.clients = [];
    this.waiter = null;
    this.target = Infinity;
    this.moves = 0;
    this.closing = false;
  }

  changed() {
    if (this.waiter) this.waiter();
  }

  async post(path, body) {
    const where = this.matchID ? path.replace(this.matchID, '…') : path;
    const data = JSON.stringify(body);
    const url = new URL(`${this.run.url}/games/${GAME}${path}`);
    const [status, text] = await new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
          timeout: this.run.timeout * 1000,
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve([res.statusCode, Buffer.concat(chunks).toString()]));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(data);
    }).catch((err) => {
      throw new Failed(`POST ${where}: ${err.code || err.message}`);
    });
    if (status >= 400) throw new Failed(`POST ${where} -> ${status} ${text.slice(0, 80)}`);
    return JSON.parse(text);
  }

  async setUp() {
    const created = await this.post('/create', { numPlayers: SEATS });
    this.matchID = created.matchID;
    await this.joinConnect();
  }

  async joinConnect() {
    this.credentials = [];
    for (let seat = 0; seat < SEATS; seat++) {
      const joined = await this.post(`/${this.matchID}/join`, {
        playerID: String(seat),
        playerName: `L${this.index}-${seat}`,
      });
      this.credentials.push(joined.playerCredentials);
    }
    this.closing = false;
    // One socket after the other, each once connected, as bench/lockstep.py opens them.
    for (const seat of [...Array(SEATS).keys(), ...Array(SPECTATORS).fill(null)]) {
      const c = new Client(this, seat, seat === null ? null : this.credentials[seat]);
      this.clients.push(c);
      await this.until(() => c.socket.connected, 'socket open: timed out');
    }
    await this.until(() => this.clients.every((c) => c.version >= 0), "no match's state");
  }

  // Wait until done(); a closed socket or --timeout seconds fail the table.
  async until(done, why) {
    const deadline = now() + this.run.timeout;
    for (;;) {
      for (const c of this.clients) if (c.closed) throw new Failed(c.closed);
      if (done()) return;
      const left = deadline - now();
      if (left <= 0) throw new Failed(why);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left * 1000);
        this.waiter = () => {
          clearTimeout(timer);
          this.waiter = null;
          resolve();
        };
      });
    }
  }

  inStep() {
    const v = this.clients[0].version;
    return this.clients.every((c) => c.version === v);
  }

  async play() {
    const run = this.run;
    while (this.moves < run.perTable && !run.stopping) {
      await this.until(() => this.inStep(), 'clients at different versions');
      if (this.clients[0].ctx.gameover) {
        await this.rematch();
        continue;
      }
      let deciding = this.clients.slice(0, SEATS).filter((c) => c.legal.length);
      if (!deciding.length) throw new Failed('no seat may act and the game is not over');
      const left = run.perTable - this.moves;
      while (deciding.length > left) deciding.splice(Math.floor(this.rand() * deciding.length), 1);
      await this.step(deciding);
    }
  }

  async step(deciding) {
    const version = this.clients[0].version;
    this.target = version + deciding.length;
    for (const c of this.clients) c.reached = null;
    const done = () => this.inStep() && this.clients[0].version >= this.target;
    const sent = [];
    for (const c of deciding) {
      const legal = c.legal;
      sent.push(now());
      c.act(legal[Math.floor(this.rand() * legal.length)], version);
    }
    let made = deciding.length;
    try {
      await this.until(done, 'no new state everywhere');
    } catch (err) {
      if (String(err.message).startsWith('socket')) throw err;
      for (const c of this.clients) c.sync(); // once, as a client does after a gap
      const moved = () => this.inStep() && this.clients[0].version > version;
      await this.until(moved, 'no new state everywhere, even after a sync');
      made = this.clients[0].version - version;
      this.run.refused += deciding.length - made;
    }
    this.moves += made;
    this.run.moves += made;
    if (made === deciding.length) {
      const last = Math.max(...this.clients.map((c) => c.reached ?? now()));
      for (const at of sent) this.run.latencies.push(last - at);
    }
    this.target = Infinity;
  }

  async rematch() {
    this.run.gamesFinished += 1;
    const answer = await this.post(`/${this.matchID}/playAgain`, {
      playerID: '0',
      credentials: this.credentials[0],
    });
    this.closeSockets();
    this.matchID = answer.nextMatchID;
    await this.joinConnect();
    this.run.rematches += 1;
  }

  closeSockets() {
    this.closing = true;
    for (const c of this.clients) c.shut();
    this.clients = [];
  }
}

function reason(err) {
  return err instanceof Failed ? err.message : `${err.name}: ${String(err.message).slice(0, 80)}`;
}

function worker() {
  let run;
  let tables;
  let ready;
  process.on('message', async (msg) => {
    if (msg.cmd === 'setup') {
      agent = new http.Agent({ keepAlive: true, maxSockets: msg.opts.httpConnections });
      run = {
        ...msg.opts, perTable: msg.opts.moves, latencies: [], moves: 0, gamesFinished: 0, rematches: 0, refused: 0,
        failures: {}, stopping: false,
      };
      tables = msg.indices.map((i) => new Table(run, i));
      const ok = await Promise.all(
        tables.map((t) =>
          t.setUp().then(
            () => true,
            (err) => {
              const why = `set-up: ${reason(err)}`;
              run.failures[why] = (run.failures[why] || 0) + 1;
              return false;
            },
          ),
        ),
      );
      ready = tables.filter((_, i) => ok[i]);
      process.send({ ev: 'setup', ready: ready.length });
    } else if (msg.cmd === 'play') {
      const cpu0 = process.cpuUsage();
      const stop = setTimeout(() => { run.stopping = true; }, run.maxSeconds * 1000);
      await Promise.all(
        ready.map((t) =>
          t.play().catch((err) => {
            t.failed = true;
            const why = `play: ${reason(err)}`;
            run.failures[why] = (run.failures[why] || 0) + 1;
          }),
        ),
      );
      clearTimeout(stop);
      const cpu = process.cpuUsage(cpu0);
      const late = ready.filter((t) => !t.failed && t.moves < run.perTable).length;
      if (run.stopping && late) run.failures[`play: not done in ${run.maxSeconds} s`] = late;
      for (const t of tables) t.closeSockets();
      process.send({
        ev: 'done',
        moves: run.moves,
        latencies: run.latencies,
        gamesFinished: run.gamesFinished,
        rematches: run.rematches,
        refused: run.refused,
        failures: run.failures,
        cpu: (cpu.user + cpu.system) / 1e6,
      }, () => {
        // Exit once the message is written: exiting on a timer lost a large one (500 tables).
        agent.destroy();
        process.exit(0);
      });
    }
  });
}

// ---- the parent: phases, server CPU, the printed figures -----------------------------------

async function waitForServer(url, seconds) {
  const deadline = now() + seconds;
  for (;;) {
    try {
      const answer = await fetch(`${url}/games`);
      if (answer.status === 200) return;
    } catch (err) {
      // not up yet
    }
    if (now() > deadline) throw new Error(`no server answers at ${url} after ${seconds} s`);
    await sleep(0.5);
  }
}

function collect(workers, ev) {
  return Promise.all(
    workers.map((w) => new Promise((resolve, reject) => {
      const gone = (code) => reject(new Error(`a client process exited (${code}) before "${ev}"`));
      const on = (msg) => {
        if (msg.ev === ev) {
          w.off('message', on);
          w.off('exit', gone);
          resolve(msg);
        }
      };
      w.on('message', on);
      w.on('exit', gone);
    })),
  );
}

async function main() {
  const opts = parseArgs(process.argv);
  await waitForServer(opts.url, Math.max(opts.timeout, 120));
  const pid = opts.serverPid;
  if (pid) cpuSeconds(pid); // fails now if there is no such process
  console.log(
    `lockstep (boardgame.io): ${opts.tables} tables x (${SEATS} seats + ${SPECTATORS} spectator), ` +
      `${opts.moves} moves each, ${opts.url}, ${opts.procs} client process(es)`,
  );
  const procs = Math.max(1, Math.min(opts.procs, opts.tables));
  const workers = [];
  for (let p = 0; p < procs; p++) workers.push(fork(__filename, ['--worker'], { stdio: 'inherit' }));
  const loadBefore = loadAverage();
  const idle0 = pid ? cpuSeconds(pid) : 0;
  await sleep(opts.idleSeconds);
  const idle1 = pid ? cpuSeconds(pid) : 0;

  const t0 = now();
  const setups = collect(workers, 'setup');
  workers.forEach((w, p) => {
    const indices = [];
    for (let i = p; i < opts.tables; i += procs) indices.push(i);
    w.send({ cmd: 'setup', indices, opts });
  });
  const ready = (await setups).reduce((a, m) => a + m.ready, 0);
  const setup = now() - t0;
  const setupCpu = pid ? cpuSeconds(pid) - idle1 : null;
  const held0 = pid ? cpuSeconds(pid) : 0;
  if (ready) await sleep(opts.idleSeconds);
  const held1 = pid ? cpuSeconds(pid) : 0;

  const cpu0 = pid ? cpuSeconds(pid) : 0;
  const start = now();
  const dones = collect(workers, 'done');
  for (const w of workers) w.send({ cmd: 'play' });
  const results = await dones;
  const end = now();
  const cpu1 = pid ? cpuSeconds(pid) : 0;

  const moves = results.reduce((a, r) => a + r.moves, 0);
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const failures = {};
  for (const r of results) {
    for (const [k, v] of Object.entries(r.failures)) failures[k] = (failures[k] || 0) + v;
  }
  const play = Math.max(end - start, 1e-9);
  const clientCpu = results.reduce((a, r) => a + r.cpu, 0);
  const per = SEATS + SPECTATORS;
  const out = [
    `tables: ${ready} of ${opts.tables} set up (${SEATS} seats + ${SPECTATORS} spectator, ${ready * per} sockets)`,
    `set-up: ${setup.toFixed(2)} s`,
    `moves: ${moves} in ${play.toFixed(2)} s  moves/s: ${(moves / play).toFixed(1)}`,
    `games finished: ${results.reduce((a, r) => a + r.gamesFinished, 0)}  ` +
      `rematches: ${results.reduce((a, r) => a + r.rematches, 0)}`,
    `act -> all ${per} clients: p50 ${(percentile(latencies, 0.5) * 1000).toFixed(1)} ms  ` +
      `p99 ${(percentile(latencies, 0.99) * 1000).toFixed(1)} ms  (${latencies.length} acts)`,
  ];
  if (pid && ready) out.push(`server CPU in set-up: ${((setupCpu * 1000) / ready).toFixed(1)} ms per table`);
  if (pid && opts.idleSeconds > 0) {
    out.push(
      `server CPU idle before set-up: ${(((idle1 - idle0) / opts.idleSeconds) * 100).toFixed(1)} % ` +
        `of one core (${opts.idleSeconds} s)`,
    );
    if (ready) {
      out.push(
        `server CPU with the tables set up, before the first act: ` +
          `${(((held1 - held0) / opts.idleSeconds) * 100).toFixed(1)} % of one core (${opts.idleSeconds} s)`,
      );
    }
  }
  if (pid) {
    const serverCpu = cpu1 - cpu0;
    out.push(
      `server CPU: ${moves ? ((serverCpu * 1000) / moves).toFixed(3) : 'nan'} ms/move ` +
        `(${serverCpu.toFixed(2)} s, ${((serverCpu / play) * 100).toFixed(0)} % of one core)`,
    );
  }
  const own = (clientCpu / play) * 100;
  const warn = own / procs > 85 ? '  <- SATURATED: the client limits these figures' : '';
  out.push(`client CPU: ${own.toFixed(0)} % of one core in ${procs} process(es)${warn}`);
  out.push(`load average: ${loadBefore} before, ${loadAverage()} after`);
  const refused = results.reduce((a, r) => a + r.refused, 0);
  if (refused) out.push(`moves not seen by every client within --timeout and a sync (late or dropped): ${refused}`);
  const total = Object.values(failures).reduce((a, b) => a + b, 0);
  out.push(`failed tables: ${total}`);
  for (const [k, v] of Object.entries(failures).sort((a, b) => b[1] - a[1])) out.push(`  ${v} x ${k}`);
  console.log(out.join('\n'));
}

if (process.argv.includes('--worker')) {
  worker();
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
