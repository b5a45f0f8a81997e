'use strict';
// Incan Gold (Diamant with artifacts) as a boardgame.io 0.50 game, for the side-by-side
// benchmark (bench/bgio/README.md). Written from the rules in docs/rules/incan-gold.md and
// the same choices as engines/incan_gold: 5 rounds, 15 treasures, 5 hazard kinds x 3,
// 5 artifacts (one joins the deck each round), a flight on the second hazard of a kind, the
// opening card revealed at once (and the next one too when it is a hazard), simultaneous
// secret torch/camp decisions.
//
// boardgame.io's means: the whole game is one turn; the seats that still have to decide are
// the turn's active players, each in the stage "decide" (setActivePlayers with a value map);
// a choice is kept in G until the last one is in and is hidden by playerView, like the deck,
// the coming artifacts and the others' tents; every shuffle uses ctx's random (the seeded
// PRNG kept in the match state). The moves ignore a stale stateID, as boardgame.io's docs
// advise for simultaneous moves: every deciding seat acts on the same state.

const TREASURE_VALUES = [1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17];
const HAZARD_KINDS = ['snakes', 'spiders', 'mummies', 'fire', 'rockfall'];
const HAZARD_COPIES = 3;
const ARTIFACT_NAMES = ['idol', 'mask', 'necklace', 'vase', 'cup'];
const ARTIFACT_VALUES = [5, 5, 5, 10, 10];
const ROUNDS = 5;

const CARDS = [];
for (const value of TREASURE_VALUES) CARDS.push({ id: CARDS.length, kind: 'treasure', value });
for (const hazard of HAZARD_KINDS) {
  for (let i = 0; i < HAZARD_COPIES; i++) CARDS.push({ id: CARDS.length, kind: 'hazard', hazard });
}
for (const name of ARTIFACT_NAMES) CARDS.push({ id: CARDS.length, kind: 'artifact', name });
const TREASURES = CARDS.filter((c) => c.kind === 'treasure').map((c) => c.id);
const HAZARDS = CARDS.filter((c) => c.kind === 'hazard').map((c) => c.id);
const ARTIFACTS = CARDS.filter((c) => c.kind === 'artifact').map((c) => c.id);

const explorers = (G) => G.players.map((p, s) => (p.inTemple ? s : -1)).filter((s) => s >= 0);
const score = (p) => p.tent + p.artifacts.reduce((a, b) => a + b, 0);
const artifactValue = (carried) => ARTIFACT_VALUES[Math.min(carried, ARTIFACT_VALUES.length - 1)];

function deckForRound(G) {
  const deck = [...TREASURES, ...HAZARDS.filter((h) => !G.removedHazards.includes(h))];
  deck.push(...G.unrevealedArtifacts);
  if (G.roundArtifact !== null) deck.push(G.roundArtifact);
  return deck;
}

function startRound(G, random) {
  G.path = [];
  for (const p of G.players) {
    p.inTemple = true;
    p.haul = 0;
    p.choice = null;
    p.lastChoice = null;
  }
  G.roundArtifact = G.futureArtifacts.length ? G.futureArtifacts.shift() : null;
  G.deck = random.Shuffle(deckForRound(G));
  G.log.push(`round ${G.round} begins; ${G.startPlayer} leads`);
  // The opening card comes with no decision; a hazard first is followed by the next card.
  revealNext(G, random);
  if (G.path.length === 1 && CARDS[G.path[0].card].kind === 'hazard' && G.deck.length) {
    revealNext(G, random);
  }
}

// Reveal the deck's top card; true when it made everyone flee (the round is then over).
function revealNext(G, random) {
  const c = CARDS[G.deck.shift()];
  const pc = { card: c.id, remainder: 0 };
  G.path.push(pc);
  const inside = explorers(G);
  if (c.kind === 'treasure') {
    const share = Math.floor(c.value / inside.length);
    for (const s of inside) G.players[s].haul += share;
    pc.remainder = c.value % inside.length;
    G.log.push(`treasure ${c.value}: ${share} each to ${inside.length}, ${pc.remainder} left`);
    return false;
  }
  if (c.kind === 'artifact') {
    G.log.push(`artifact ${c.name} on the path`);
    return false;
  }
  const twice = G.path.slice(0, -1).some((p) => CARDS[p.card].hazard === c.hazard);
  if (!twice) {
    G.log.push(`hazard ${c.hazard}`);
    return false;
  }
  G.log.push(`second ${c.hazard}: everyone inside flees`);
  for (const s of inside) {
    G.players[s].haul = 0;
    G.players[s].inTemple = false;
  }
  G.removedHazards.push(c.id);
  const lost = G.path.filter((p) => CARDS[p.card].kind === 'artifact').map((p) => p.card);
  G.removedArtifacts.push(...lost);
  G.path = G.path.filter((p) => !lost.includes(p.card));
  endRound(G, random, { round: G.round, endedBy: 'flight', hazard: c.hazard });
  return true;
}

// Leavers share the gems on the path; a lone leaver carries out the artifacts; all bank.
function leave(G, leavers) {
  const total = G.path.reduce((a, p) => a + p.remainder, 0);
  const share = Math.floor(total / leavers.length);
  let rest = total % leavers.length;
  if (total) {
    for (const p of G.path) p.remainder = 0;
    for (const p of G.path) {
      if (rest === 0) break;
      if (CARDS[p.card].kind === 'treasure') {
        p.remainder = rest;
        rest = 0;
      }
    }
    if (rest) G.path[0].remainder = rest;
  }
  if (leavers.length === 1) {
    const p = G.players[leavers[0]];
    const keep = [];
    for (const pc of G.path) {
      const c = CARDS[pc.card];
      if (c.kind !== 'artifact') {
        keep.push(pc);
        continue;
      }
      const value = artifactValue(G.artifactsCarried);
      G.artifactsCarried += 1;
      p.artifacts.push(value);
      p.artifactNames.push(c.name);
      G.log.push(`${leavers[0]} carries out the ${c.name} (${value})`);
    }
    G.path = keep;
  }
  for (const s of leavers) {
    const p = G.players[s];
    p.tent += p.haul + share;
    p.haul = 0;
    p.inTemple = false;
  }
}

function endRound(G, random, summary) {
  summary.scores = G.players.map(score);
  G.rounds.push(summary);
  G.removedArtifacts.push(
    ...G.path.filter((p) => CARDS[p.card].kind === 'artifact').map((p) => p.card),
  );
  G.unrevealedArtifacts = G.deck.filter((id) => CARDS[id].kind === 'artifact');
  G.deck = [];
  for (const p of G.players) p.choice = null;
  G.log.push(`round ${G.round} is over`);
  if (G.round >= ROUNDS) {
    G.over = true;
    G.path = [];
    return;
  }
  G.round += 1;
  G.startPlayer = (G.startPlayer + 1) % G.players.length;
  startRound(G, random);
}

// Every choice is in: reveal them, send the leavers home, then reveal on or end the round.
function resolveDecision(G, random) {
  const inside = explorers(G);
  const leavers = inside.filter((s) => G.players[s].choice === 'camp');
  for (const s of inside) {
    const p = G.players[s];
    p.lastChoice = p.choice;
    p.choice = null;
  }
  if (leavers.length) leave(G, leavers);
  if (!explorers(G).length) {
    endRound(G, random, { round: G.round, endedBy: 'all_left', hazard: '' });
  } else if (!G.deck.length) {
    leave(G, explorers(G)); // defensive rule: the deck ran out, everyone inside returns
    endRound(G, random, { round: G.round, endedBy: 'deck_empty', hazard: '' });
  } else {
    revealNext(G, random);
  }
}

// The seats that still have to decide, each in the stage "decide".
function deciding(G) {
  const value = {};
  G.players.forEach((p, s) => {
    if (p.inTemple && p.choice === null) value[String(s)] = 'decide';
  });
  return value;
}

function choose(kind) {
  return {
    move: ({ G, playerID, random, events }) => {
      const p = G.players[Number(playerID)];
      p.choice = kind;
      G.log.push(`${playerID} has chosen`);
      if (explorers(G).every((s) => G.players[s].choice !== null)) resolveDecision(G, random);
      if (G.log.length > 40) G.log.splice(0, G.log.length - 40);
      if (!G.over) events.setActivePlayers({ value: deciding(G) });
    },
    ignoreStaleStateID: true, // simultaneous: every deciding seat acts on the same state
    client: false, // the reveal draws from the match's secret PRNG: the server computes it
  };
}

// What `playerID` may see: no deck order, no coming artifacts, only its own tent and pending
// choice (the others' only as "has chosen"); at the end everything but the deck.
function playerView({ G, playerID }) {
  const mine = playerID === null || playerID === undefined ? -1 : Number(playerID);
  const players = G.players.map((p, s) => ({
    inTemple: p.inTemple,
    haul: p.haul,
    artifacts: p.artifacts,
    artifactNames: p.artifactNames,
    hasChosen: p.choice !== null,
    choice: s === mine ? p.choice : null,
    lastChoice: p.lastChoice,
    tent: s === mine || G.over ? p.tent : null,
    score: G.over ? score(p) : null,
  }));
  return {
    round: G.round,
    rounds: ROUNDS,
    over: G.over,
    startPlayer: G.startPlayer,
    path: G.path.map((pc) => ({ ...CARDS[pc.card], remainder: pc.remainder })),
    deckSize: G.deck.length,
    roundArtifact: G.roundArtifact === null ? null : CARDS[G.roundArtifact].name,
    artifactsCarried: G.artifactsCarried,
    nextArtifactValue: artifactValue(G.artifactsCarried),
    removedHazards: G.removedHazards.map((h) => CARDS[h].hazard),
    removedArtifacts: G.removedArtifacts.map((a) => CARDS[a].name),
    gemsOnPath: G.path.reduce((a, p) => a + p.remainder, 0),
    players,
    roundsPlayed: G.rounds.map(({ round, endedBy, hazard }) => ({ round, endedBy, hazard })),
    scoreHistory: G.over ? G.rounds.map((r) => r.scores) : null,
    log: G.log.slice(-20),
  };
}

const IncanGold = {
  name: 'incan_gold',
  minPlayers: 3,
  maxPlayers: 8,

  setup: ({ ctx, random }) => {
    const G = {
      round: 1,
      startPlayer: random.Die(ctx.numPlayers) - 1,
      players: Array.from({ length: ctx.numPlayers }, () => ({
        inTemple: true,
        haul: 0,
        tent: 0,
        artifacts: [],
        artifactNames: [],
        choice: null,
        lastChoice: null,
      })),
      deck: [],
      futureArtifacts: random.Shuffle(ARTIFACTS),
      unrevealedArtifacts: [],
      roundArtifact: null,
      path: [],
      removedHazards: [],
      removedArtifacts: [],
      artifactsCarried: 0,
      rounds: [],
      over: false,
      log: [],
    };
    startRound(G, random);
    return G;
  },

  turn: {
    onBegin: ({ G, events }) => {
      events.setActivePlayers({ value: deciding(G) });
    },
    stages: {
      decide: { moves: { torch: choose('torch'), camp: choose('camp') } },
    },
  },

  moves: {},

  playerView,

  endIf: ({ G }) => {
    if (!G.over) return undefined;
    const scores = G.players.map(score);
    const key = (s) => [scores[s], G.players[s].artifacts.length];
    const best = G.players
      .map((_, s) => s)
      .reduce((b, s) => {
        const [a, x] = key(s);
        const [c, y] = key(b);
        return a > c || (a === c && x > y) ? s : b;
      }, 0);
    const winners = G.players
      .map((_, s) => s)
      .filter((s) => key(s)[0] === key(best)[0] && key(s)[1] === key(best)[1]);
    return { scores, winners: winners.map(String) };
  },
};

module.exports = { IncanGold, CARDS, ROUNDS };
