#!/usr/bin/env bash
# Regenerates example-peppa-seat0.txt: one Peppa deal as seat 0 (the shipped Python bot) saw it.
# "<<" lines go from the referee to the bot, ">>" lines from the bot to the referee.
# tests/test_protocol_example.py checks that the committed file is what the tool produces.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m cardcli play peppa --seed 7 -o end_threshold=1 --verbose \
  --seat "python3 bots/python/random_bot.py --seed 3 --name example-bot" \
  --seat random --seat random --seat random 2>&1 >/dev/null \
  | sed -n 's/^cardcli\.bot seat0 //p'
