#!/usr/bin/env lua5.4
-- A cardcli bot in Lua: plays any game by picking one of the offered moves at random.
--
-- Lua 5.4, standard library only. Run:
--     lua5.4 random_bot.lua [--seed N] [--name NAME]
--
-- It shows the whole protocol a bot needs (protocol/PROTOCOL.md): answer the handshake,
-- then answer every `go` line with one of the moves it lists; ignore everything else.
-- The choices come from the bot's own splitmix64 generator (never math.random), seeded
-- exactly as the C bot seeds it, so with the same seed it plays the same moves as
-- bots/c/random_bot.c. Lua 5.4's integers are 64 bits and wrap around, like C's uint64_t,
-- and `>>` is a logical shift; only comparison and remainder need unsigned forms (below).

-- 2^64 divided by the golden ratio: splitmix64's increment, and the factor that spreads a
-- match's `rng` number over 64 bits (a hexadecimal integer that overflows wraps around).
local GOLDEN = 0x9E3779B97F4A7C15
local ALL_ONES = -1 -- 2^64 - 1 as an unsigned number

-- x % n with x read as unsigned (n >= 1): halve x so that `//` sees a non-negative number,
-- then correct the remainder, which is below 2n.
local function unsigned_mod(x, n)
  local r = x - ((x >> 1) // n << 1) * n
  if not math.ult(r, n) then r = r - n end
  return r
end

-- splitmix64: tiny, fast, and good enough to pick a move.
local state = 0

local function next_random()
  state = state + GOLDEN
  local z = state
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end

-- A uniform integer in [0, n), n >= 1, without modulo bias (rejection sampling).
local function below(n)
  local limit = ALL_ONES - (unsigned_mod(ALL_ONES, n) + 1) % n
  local x
  repeat
    x = next_random()
  until not math.ult(limit, x)
  return unsigned_mod(x, n)
end

-- Reads an integer, optionally negative; like every bot here it keeps the low 64 bits, so
-- any integer text is a seed (a negative one as two's complement). nil if not an integer.
local function parse_seed(text)
  local sign, digits = text:match("^(%-?)(%d+)$")
  if not digits then return nil end
  local value = 0
  for i = 1, #digits do
    value = value * 10 + (digits:byte(i) - 48)
  end
  if sign == "-" then value = -value end
  return value
end

local function usage(out)
  out:write("usage: lua5.4 random_bot.lua [--seed N] [--name NAME]\n")
end

local function fail(message)
  io.stderr:write("random_bot.lua: ", message, "\n")
  usage(io.stderr)
  os.exit(2)
end

-- Writes one line and flushes it: the referee waits for every line we write. If the
-- referee has gone, nobody is left to answer: exit.
local function send(...)
  local line = table.concat({...}) .. "\n"
  if not (io.stdout:write(line) and io.stdout:flush()) then os.exit(0) end
end

local name = "lua-random"
local seed = nil
local i = 1
while i <= #arg do
  local a = arg[i]
  local seed_text = nil
  if a == "--seed" and i < #arg then
    i = i + 1
    seed_text = arg[i]
  elseif a:sub(1, 7) == "--seed=" then
    seed_text = a:sub(8)
  elseif a == "--name" and i < #arg then
    i = i + 1
    name = arg[i]
  elseif a == "--help" or a == "-h" then
    usage(io.stdout)
    os.exit(0)
  else
    fail("unknown argument " .. a)
  end
  if seed_text then
    seed = parse_seed(seed_text)
    if not seed then fail("bad seed " .. seed_text) end
  end
  i = i + 1
end
-- No seed given: one from the clock and a fresh table's address, different every run.
seed = seed or (os.time() ~ (math.floor(os.clock() * 1e6) << 20) ~ (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
state = seed

-- io.lines reads lines of any length (referee lines can reach 1 MiB), without their "\n".
for line in io.lines() do
  local words = {}
  for word in line:gmatch("%S+") do words[#words + 1] = word end
  local command = words[1]
  if command == "cardcli" then
    send("id name ", name)
    send("id author cardcli examples")
    send("id version 1.0")
    send("ready")
  elseif command == "rng" and words[2] then
    -- reseed per match: same seed and same match, same moves, whatever came before
    state = seed ~ ((parse_seed(words[2]) or 0) * GOLDEN)
  elseif command == "go" then
    -- go <kind> <millis> <move> <move> ...: the list is never empty.
    if #words > 3 then send("move ", words[4 + below(#words - 3)]) end
  elseif command == "quit" then
    break
  end
  -- Every other line (game, deal, hand, play, ...) is ignored.
end
