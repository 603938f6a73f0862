/** The bundles users run: each action.yml's runs.main points at one of these. */
export const ENTRIES = [
  { source: 'src/index.ts', out: '', action: 'action.yml' },
  { source: 'src/post.ts', out: 'post', action: 'action.yml' },
  { source: 'src/visitors/index.ts', out: 'visitors', action: 'visitors/action.yml' }
]

/** A string found once in each copy of undici; more than one copy bloats the bundle and slows start-up. */
export const UNDICI_MARKER = 'undici.error.UND_ERR_BPL_MISSING_UPSTREAM'
