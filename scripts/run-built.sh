#!/bin/sh
# `npm start` and `npm run cli`: run the compiled build (dist/), building it first when there is
# none, and refusing, saying so, when a TypeScript source under src/ or adapters/ is newer than
# it (a git pull or an edit since). It does not rebuild it then: another bot or a cron job may be
# running the same dist/. A script of its own, so that npm echoes one short line before each run.
# `exec` at the end: node takes this shell's place, so npm's signals reach the bot itself.
#
# Usage: sh scripts/run-built.sh <built entry point, e.g. dist/adapters/main.js> [arguments…]
entry=$1
shift
if [ ! -f "$entry" ]; then
  npm run build >&2 || exit 1
fi
if [ -n "$(find src adapters -name '*.ts' -newer "$entry" | head -n 1)" ]; then
  echo 'Paper Scout: dist/ is older than the TypeScript sources (a git pull or an edit since the build): run npm run build, then this again.' >&2
  exit 1
fi
exec node "$entry" "$@"
