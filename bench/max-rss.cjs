// Preloaded with `node -r` into every measured process (baselines too): writes the program's peak
// resident memory (KiB) to BENCH_RSS_FILE as it exits. With BENCH_KEPT set (and --expose-gc), it
// collects all garbage every 100 ms and also writes the most heap the process held just after one
// (KiB): what it kept, as against garbage not yet collected. Those runs measure nothing else, since
// the collections change the peak and the time.
const { appendFileSync, readFileSync } = require('node:fs')
const { setInterval } = require('node:timers')

/**
 * The peak resident memory of this program (KiB): Linux's VmHWM, which starts afresh when the program
 * starts; `maxRSS` would also count the benchmark's own memory, copied into the child before exec.
 */
function peakKiB() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (hwm) return Number(hwm[1])
  } catch {
    // Not Linux: the process's maxRSS.
  }
  return process.resourceUsage().maxRSS
}

const file = process.env.BENCH_RSS_FILE
let kept = null
const sample = () => {
  globalThis.gc()
  kept = Math.max(kept ?? 0, Math.round(process.memoryUsage().heapUsed / 1024))
}
const keeping = Boolean(file && process.env.BENCH_KEPT && typeof globalThis.gc === 'function')
if (keeping) setInterval(sample, 100).unref()
if (file)
  process.on('exit', () => {
    if (keeping) sample()
    appendFileSync(file, `${JSON.stringify({ peak: peakKiB(), kept })}\n`)
  })
