import { readFileSync } from 'node:fs'
import path from 'node:path'
import addFormats from 'ajv-formats'
import { OpenAPIBackend, type Operation, type Request } from 'openapi-backend'
import type { RecordedExchange } from '../simulator/server.js'
import { perWorker } from './per-worker.js'
import { ROOT } from './run-action.js'

/** The service's published documents, kept in the repository so it tests itself anywhere. */
export const SPEC_DIR = path.join(ROOT, 'spec')
/** The team's shared copy, beside the checkout on our machines (not on GitHub). */
export const SHARED_SPEC_DIR = path.resolve(ROOT, '..', 'shared', 'spec')

type Doc = {
  paths: Record<
    string,
    Record<string, { operationId?: string; responses?: Record<string, unknown> }>
  >
}

async function load(file: string): Promise<OpenAPIBackend> {
  const definition = JSON.parse(readFileSync(path.join(SPEC_DIR, file), 'utf8')) as Doc
  // Neither document names its operations; openapi-backend needs ids to find them.
  for (const [p, ops] of Object.entries(definition.paths)) {
    for (const [method, op] of Object.entries(ops)) op.operationId ??= `${method} ${p}`
  }
  return openApiBackend(definition)
}

/** A validator of traffic against an OpenAPI document (the service's, or GitHub's in github-openapi.ts). */
export async function openApiBackend(definition: unknown): Promise<OpenAPIBackend> {
  const api: OpenAPIBackend = new OpenAPIBackend({
    definition: definition as never,
    // The 3.1 document fails some validators' own schema check; validate traffic, not the document.
    strict: false,
    validate: true,
    // quick: skip the strict document check and dereference in place.
    quick: true,
    customizeAjv: ajv => {
      addFormats.default(ajv)
      return ajv
    },
    // GitHub's document uses keywords of its own (x-github …); they are not schema mistakes.
    // Without Ajv's passes over the code it generates: a validator checks the same, and each
    // worker compiles GitHub's large schemas a second faster (measured) for the few calls each
    // one then checks.
    ajvOpts: { logger: false, strict: false, code: { optimize: false } }
  })
  await api.init()
  return api
}

/**
 * openapi-backend's matchOperation, once per method and path: the library rebuilds its list of
 * operations, and a pattern for each, at every call, which made matching cost more than checking.
 */
export function operationMatcher(api: OpenAPIBackend): (request: Request) => Operation | undefined {
  const found = new Map<string, Operation | undefined>()
  return request => {
    const key = `${request.method} ${request.path}`
    if (!found.has(key)) found.set(key, api.matchOperation(request) as Operation | undefined)
    return found.get(key)
  }
}

export interface OpenApiValidator {
  /** Problems with one recorded exchange; empty when request and response match the documents. */
  problems(exchange: RecordedExchange): string[]
}

export async function openApiValidator(): Promise<OpenApiValidator> {
  const apis = await perWorker('service-openapi', () =>
    Promise.all([load('admin-openapi.json'), load('analytics.openapi.json')])
  )
  const matchers = apis.map(operationMatcher)
  return {
    problems(exchange) {
      const request = {
        method: exchange.method.toLowerCase(),
        path: exchange.path,
        query: exchange.query,
        headers: exchange.headers as Record<string, string>,
        body: exchange.requestBody
      }
      for (const [i, api] of apis.entries()) {
        const operation = matchers[i]?.(request)
        if (!operation) continue
        const problems: string[] = []
        const req = api.validateRequest(request, operation)
        // A request the documents call invalid must be refused, not served.
        if (!req.valid && exchange.status !== 400) {
          for (const e of req.errors ?? [])
            problems.push(
              `request ${e.instancePath || ''} ${e.message}, answered ${exchange.status}`
            )
        }
        if (exchange.status === undefined) return problems
        const declared = operation.responses?.[String(exchange.status)]
        if (declared) {
          const res = api.validateResponse(exchange.responseBody, operation, exchange.status)
          for (const e of res.errors ?? [])
            problems.push(`response ${exchange.status} ${e.instancePath || ''} ${e.message}`)
        } else {
          // Statuses the documents leave out (401, 503 …) must still carry the documented error shape.
          const body = exchange.responseBody as { error?: unknown } | undefined
          if (exchange.status >= 400 && typeof body?.error !== 'string') {
            problems.push(`response ${exchange.status} without a string 'error'`)
          }
        }
        return problems
      }
      return [`no documented operation for ${exchange.method} ${exchange.path}`]
    }
  }
}
