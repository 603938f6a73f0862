/** Turns the runner's cancel (SIGINT, then SIGTERM) into an AbortSignal the domain code listens to. */
export function cancelOnSignals(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): {
  signal: AbortSignal
  dispose: () => void
} {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals): void => controller.abort(new Error(`Received ${name}`))
  for (const name of signals) process.on(name, onSignal)
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of signals) process.off(name, onSignal)
    }
  }
}
