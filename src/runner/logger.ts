/** Where the domain code writes what the user should read; the runner's log in a real run. */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  /** Shown as an annotation on the run: a decision the user should see (why nothing started). */
  notice(message: string): void
  warning(message: string): void
}

export const silentLogger: Logger = { debug() {}, info() {}, notice() {}, warning() {} }

/**
 * One log line, whatever it holds: a line break inside a message would let text from the service
 * or an issue start a line of its own, which the runner reads as a workflow command.
 */
export const oneLine = (message: string): string =>
  message
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[\u2028\u2029]/g, ' ')

/** A logger over `write`, one line per message whatever the message holds. */
export function lineLogger(write: Logger): Logger {
  return {
    debug: message => write.debug(oneLine(message)),
    info: message => write.info(oneLine(message)),
    notice: message => write.notice(oneLine(message)),
    warning: message => write.warning(oneLine(message))
  }
}
