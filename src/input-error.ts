/** A mistake in the workflow's inputs: reported as one line, without a stack trace. */
export class InputError extends Error {
  override name = 'InputError'
}
