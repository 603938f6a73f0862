// Preloaded with `node -r` into every measured process (baselines too): writes the process's peak
// resident memory (KiB) to BENCH_RSS_FILE as it exits.
const { appendFileSync } = require('node:fs')
const file = process.env.BENCH_RSS_FILE
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS}\n`))
