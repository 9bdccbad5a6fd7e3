#!/usr/bin/env node
// A cardcli bot in JavaScript (Node 18+, no npm packages): picks one of the offered moves
// at random.
//
// Usage: node random_bot.js [--seed N] [--name NAME]
// It shows the whole protocol a bot needs (protocol/PROTOCOL.md): answer the handshake,
// then answer every `go` line with one of the moves it lists; ignore everything else.
// With --seed the choices come from the bot's own PRNG (mulberry32), so the same seed plays
// the same moves.
"use strict";

const readline = require("node:readline");
const crypto = require("node:crypto");

function usage(stream) {
  stream.write("usage: node random_bot.js [--seed N] [--name NAME]\n");
}

// Fold any integer seed (even beyond 2^53) into 32 bits.
function seedFrom(text) {
  if (!/^-?\d+$/.test(text)) return null;
  const big = BigInt.asUintN(64, BigInt(text));
  return Number((big & 0xffffffffn) ^ (big >> 32n)) >>> 0;
}

function parseArgs(argv) {
  const args = { seed: null, name: "js-random" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let seedText = null;
    if (arg === "--seed" && i + 1 < argv.length) seedText = argv[++i];
    else if (arg.startsWith("--seed=")) seedText = arg.slice("--seed=".length);
    else if (arg === "--name" && i + 1 < argv.length) { args.name = argv[++i]; continue; }
    else if (arg === "--help" || arg === "-h") { usage(process.stdout); process.exit(0); }
    else {
      process.stderr.write(`random_bot.js: unknown argument ${arg}\n`);
      usage(process.stderr);
      process.exit(2);
    }
    args.seed = seedFrom(seedText);
    if (args.seed === null) {
      process.stderr.write(`random_bot.js: bad seed ${seedText}\n`);
      process.exit(2);
    }
  }
  return args;
}

// mulberry32: a small 32-bit PRNG; next() returns an unsigned 32-bit integer.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

// A uniform integer in [0, n), n >= 1, without modulo bias (rejection sampling).
function below(next, n) {
  const limit = 0x100000000 - (0x100000000 % n);
  let r;
  do r = next(); while (r >= limit);
  return r % n;
}

const args = parseArgs(process.argv.slice(2));
const baseSeed = args.seed !== null ? args.seed : crypto.randomBytes(4).readUInt32LE(0);
let next = mulberry32(baseSeed);

// Writes to a pipe are synchronous on Linux, so each line reaches the referee at once.
// If the referee has gone (EPIPE), there is nobody left to answer: just exit.
process.stdout.on("error", () => process.exit(0));
function send(text) {
  process.stdout.write(text + "\n");
}

// readline has no line length limit: referee lines can reach 1 MiB.
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
let done = false;

rl.on("line", (line) => {
  if (done) return;
  const words = line.split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return;
  switch (words[0]) {
    case "cardcli":
      send(`id name ${args.name}`);
      send("id author cardcli examples");
      send("id version 1.0");
      send("ready");
      break;
    case "rng":
      // reseed per match: same seed and same match, same moves, whatever came before
      if (words.length > 1) next = mulberry32((baseSeed ^ Number(BigInt(words[1]) % 4294967296n)) >>> 0);
      break;
    case "go": {
      // go <kind> <millis> <move> <move> ...: the list is never empty.
      const moves = words.slice(3);
      if (moves.length > 0) send(`move ${moves[below(next, moves.length)]}`);
      break;
    }
    case "quit":
      done = true;
      rl.close();
      process.stdin.destroy();
      break;
    default:
      // Every other line (game, deal, hand, play, ...) is ignored.
      break;
  }
});

// End of input (or quit): nothing keeps the event loop alive, so Node exits.
rl.on("close", () => {
  done = true;
});
