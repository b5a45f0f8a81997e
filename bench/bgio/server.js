'use strict';
// boardgame.io 0.50's Server with Incan Gold, for the side-by-side benchmark (README.md here).
//   node server.js --port 8500                         # in memory (boardgame.io's InMemory)
//   node server.js --port 8500 --postgres postgresql://postgres@127.0.0.1:5432/bgio_bench
// The PostgreSQL store is bgio-postgres (Sequelize; its defaults, query logging off). Lobby
// API and socket.io on the same port; prints "listening on PORT" once it serves.
const { Server, Origins, SocketIO } = require('boardgame.io/server');
const { IncanGold } = require('./incan_gold');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const port = Number(arg('--port', '8500'));
const url = arg('--postgres', '');
let db;
if (url) {
  const { PostgresStore } = require('bgio-postgres');
  db = new PostgresStore(url, { logging: false });
}
// boardgame.io logs every refused move with console.error; keep stdout/stderr quiet unless
// --verbose (a refused move in the lockstep shows up there as a table that stalls).
if (!process.argv.includes('--verbose')) {
  process.env.NODE_ENV = process.env.NODE_ENV || 'production';
}
// --ping-timeout S: socket.io's ping timeout (boardgame.io sets 20 s, with a ping every 10 s).
// On a starved server a lockstep wave of moves at 500 tables delays the pongs past 20 s and
// every socket closes with "ping timeout"; the benchmark raises it there (docs/benchmarks.md).
const pingTimeout = Number(arg('--ping-timeout', '20')) * 1000;
const transport = new SocketIO({ socketOpts: { pingTimeout } });
const server = Server({ games: [IncanGold], db, transport, origins: [Origins.LOCALHOST] });
server.run({ port, callback: () => console.log(`listening on ${port} (${url ? 'postgres' : 'in memory'})`) });
