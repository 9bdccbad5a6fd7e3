#!/usr/bin/env bash
# A cardcli bot in plain bash: picks one of the offered moves at random.
# Usage: random_bot.sh [--seed N]
# With --seed, bash's RANDOM is seeded, so the same seed plays the same moves.
seed=0
if [ "${1:-}" = "--seed" ] && [ -n "${2:-}" ]; then
  seed=$2
  RANDOM=$seed
fi
while IFS= read -r line; do
  line=${line%$'\r'}
  read -r -a words <<< "$line"
  case "${words[0]:-}" in
    cardcli)
      printf 'id name bash-random\nid author cardcli examples\nid version 1.0\nready\n' ;;
    rng)
      # reseed per match: same seed and same match, same moves, whatever came before
      RANDOM=$(( (seed * 7919 + ${words[1]:-0}) % 32768 )) ;;
    go)
      # go <kind> <millis> <move> <move> ...
      moves=("${words[@]:3}")
      printf 'move %s\n' "${moves[RANDOM % ${#moves[@]}]}" ;;
    quit)
      exit 0 ;;
  esac
done
