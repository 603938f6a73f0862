export const id = 662;
export const ids = [662];
export const modules = {

/***/ 5662:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  readPolicy: () => (/* binding */ readPolicy)
});

// EXTERNAL MODULE: ./node_modules/valibot/dist/index.mjs
var dist = __webpack_require__(7934);
// EXTERNAL MODULE: ./.tmp/ncc-js/runner/text.js
var runner_text = __webpack_require__(3492);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/code-repositories.js
var code_repositories = __webpack_require__(523);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/policy.js
var policy = __webpack_require__(1281);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/actions.js
var policy_actions = __webpack_require__(1012);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/problems.js
var policy_problems = __webpack_require__(1975);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/schema.js
var schema = __webpack_require__(6324);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/yaml-text.js
var yaml_text = __webpack_require__(4234);
;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/key-messages.js




// The words of the messages about the file's keys: the example of a right value, the key someone
// meant. Apart from problems.ts so that a run with no policy file loads no schema.
/** `max-jobs: 20/month`: a right value of a key, for its messages. */
const exampleOf = (key) => `${key}: ${(0,yaml_text/* yamlFlow */.Uq)((0,schema/* keyInfo */.uc)(key).example)}`;
/** Edits between two words, for the key someone meant. */
function distance(a, b) {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++)
            next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
    }
    return row[b.length];
}
/** The known word closest to `word`, when it is close enough to be what was meant. */
function closest(word, known) {
    const lower = word.toLowerCase().replace(/_/g, '-');
    let best;
    for (const candidate of known) {
        const edits = distance(lower, candidate);
        if (!best || edits < best.edits)
            best = { word: candidate, edits };
    }
    return best && best.edits <= Math.max(2, Math.floor(word.length / 4)) ? best.word : undefined;
}
/** Why a key the file writes at its top is not one of the policy's; its value is never shown. */
function unknownKeyMessage(key) {
    const name = (0,policy_problems/* keyName */.xT)(key);
    if (key === policy_actions/* CONFIG_INPUT */.sR)
        return `'${policy_actions/* CONFIG_INPUT */.sR}' is the input that names this file, not a key in it: remove the line.`;
    if (key === policy_actions/* REMOVED_INPUT */.OC)
        return `'${policy_actions/* REMOVED_INPUT */.OC}' is gone in v2: ${policy_actions/* REMOVED_WHY */.G7}. Remove the line.`;
    if (key === 'prompt')
        return `'prompt' is not a key of the policy file: a standing instruction sent before every request is 'instructions' (such as instructions: Write in the second person.); the prompt of one run stays an input of ${policy_actions/* ACTION_USES */.q4.main.uses}.`;
    const actions = (0,policy_actions/* actionsOf */.Ro)(key);
    if (actions.length)
        return `'${name}' is an input of the workflow's step (${actions.length === policy_actions/* AGENT_ACTIONS */.Wh.length ? 'every agent action has it' : actions.map(a => policy_actions/* ACTION_USES */.q4[a].uses).join(', ')}), not a key of the policy file: keep it under 'with:' there${/token|key/.test(key) ? ', from a secret' : ''}, and remove it here.`;
    const meant = closest(key, schema/* POLICY_KEYS */.cN);
    return meant
        ? `'${name}' is not a key of the policy file; did you mean '${meant}'? (such as ${exampleOf(meant)})`
        : `'${name}' is not a key of the policy file; the keys are ${schema/* POLICY_KEYS */.cN.join(', ')}.`;
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/locator.js

/** Where the problems of one file are found: its document, lines and text. */
class Locator {
    text;
    doc;
    lines;
    constructor(text, doc, lines) {
        this.text = text;
        this.doc = doc;
        this.lines = lines;
    }
    at(offset, key) {
        const { line, col } = this.lines.linePos(offset);
        return { line, column: col, ...(key ? { key } : {}) };
    }
    /** The node at a path of keys and indexes, and the pair holding it. */
    find(path) {
        let node = this.doc.contents;
        let pair;
        for (const step of path) {
            const items = node?.items;
            if (!Array.isArray(items))
                return {};
            if (typeof step === 'number') {
                node = items[step];
                pair = undefined;
            }
            else {
                pair = items.find(p => p.key?.value === step);
                if (!pair)
                    return {};
                node = pair.value;
            }
        }
        return { node: node, ...(pair ? { pair } : {}) };
    }
    /** The line of a value (or of its key, when it has no value), named by its path. */
    value(path) {
        const { node, pair } = this.find(path);
        const offset = node?.range?.[0] ?? pair?.key?.range?.[0] ?? 0;
        return this.at(offset, pathName(path));
    }
    /** The line of a key itself: an unknown key, or a key another one depends on. */
    key(path) {
        const { pair } = this.find(path);
        return this.at(pair?.key?.range?.[0] ?? 0, pathName(path));
    }
    /** The path of the innermost key or item holding an offset, for a syntax error's message. */
    pathAt(offset) {
        const path = [];
        let node = this.doc.contents;
        for (;;) {
            const items = node?.items;
            if (!Array.isArray(items))
                return path;
            const index = items.findIndex(item => {
                const range = item.key !== undefined ? spanOf(item) : item.range;
                return range && offset >= range[0] && offset <= range[1];
            });
            if (index < 0)
                return path;
            const item = items[index];
            if ('key' in item && item.key !== undefined) {
                path.push(String(item.key?.value));
                node = item.value;
            }
            else {
                path.push(index);
                node = item;
            }
        }
    }
}
/** A pair's extent: from its key to the end of its value (not the line breaks after it). */
function spanOf(pair) {
    const start = pair.key?.range?.[0];
    const end = pair.value?.range?.[1] ?? pair.key?.range?.[1];
    return start === undefined || end === undefined ? undefined : [start, end];
}
/** `code-repositories[1].paths[0]`. */
const pathName = (path) => path
    .map((step, i) => typeof step === 'number' ? `[${step}]` : i ? `.${(0,policy_problems/* keyName */.xT)(step)}` : (0,policy_problems/* keyName */.xT)(step))
    .join('');

// EXTERNAL MODULE: ./.tmp/ncc-js/policy/choices.js
var choices = __webpack_require__(7899);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/presets.js
var presets = __webpack_require__(2175);
// EXTERNAL MODULE: ./.tmp/ncc-js/records/ledger/starts.js
var starts = __webpack_require__(1554);
;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/read.js











/** Aliases (`*name`) a file may expand; a few shared lists are fine, a billion laughs is not. */
const MAX_ALIAS_COUNT = 100;
/** Problems from the top of the file down. */
const inOrder = (problems) => problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
/** What YAML's parser says, in words for a person who wrote a policy file. */
function syntaxMessage(code, message, line) {
    if (code === 'DUPLICATE_KEY')
        return 'is set twice: keep one.';
    if (code === 'MULTIPLE_DOCS')
        return 'the file holds more than one YAML document: remove the --- line and what follows, or merge them.';
    // `[src/{api,cli}/**]`: in a list on one line, braces and commas are YAML's own.
    const glob = /\[[^\]#]*[{}]/.exec(line)
        ? ' Inside [ ], YAML reads {, } and , itself: quote a glob that has them ("src/{api,cli}/**"), or write the list one item a line after "- ".'
        : ' Check the indentation and the quotes.';
    return `is not valid YAML: ${message
        .split('\n')[0]
        ?.replace(/ at line \d+, column \d+:?$/, '')
        .replace(/\.$/, '')}.${glob}`;
}
/** Tags, and aliases with no anchor: YAML's reading of a glob that starts with `!` or `*`. */
function nodeProblems(yaml, where) {
    const problems = [];
    const anchors = new Set();
    yaml.visit(where.doc, {
        Node(_key, node) {
            const offset = node.range?.[0] ?? 0;
            const key = pathName(where.pathAt(offset));
            if (yaml.isAlias(node)) {
                const alias = `*${node.source}`;
                if (!anchors.has(node.source))
                    problems.push({
                        ...where.at(offset, key),
                        message: (0,policy_problems/* looksSecret */.n0)(alias)
                            ? 'reads as a YAML alias with no anchor before it (not shown: it looks like a secret).'
                            : `${alias} reads as a YAML alias, and no &${node.source} comes before it. A glob that starts with * must be quoted: "${alias}".`
                    });
                return;
            }
            if (node.anchor)
                anchors.add(node.anchor);
            if (node.tag === undefined)
                return;
            // The node starts after its tag, which the parser resolved: `!!str` is yaml.org's `str`.
            const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
            const at = where.text.lastIndexOf(tag, offset);
            const glob = `${tag}${yaml.isScalar(node) && node.source ? ` ${node.source}` : ''}`;
            problems.push({
                ...where.at(at < 0 ? offset : at, key),
                message: (0,policy_problems/* looksSecret */.n0)(tag)
                    ? 'reads as a YAML tag (not shown: it looks like a secret). Quote the value.'
                    : tag.startsWith('!!') || tag.startsWith('!<')
                        ? `YAML tags (${tag}) are not read in a policy file: write the value without it.`
                        : `${tag} reads as a YAML tag. A glob that starts with ! must be quoted: "${glob}".`
            });
        }
    });
    return problems;
}
/** One message of valibot's, for the value it judged: what is wrong, what it got, what is right. */
function issueProblem(where, issue) {
    const path = (issue.path ?? []).map(item => item.key);
    const last = issue.path?.at(-1);
    const top = path[0];
    if (issue.type === 'strict_object' && last?.origin === 'key') {
        const name = String(last.key);
        return {
            ...where.key(path),
            message: path.length === 1
                ? unknownKeyMessage(name)
                : `'${(0,policy_problems/* keyName */.xT)(name)}' is not a key of a repository: write repository, paths and paths-ignore only (such as ${exampleOf('code-repositories')}).`
        };
    }
    // A rule on a whole list or mapping says what is wrong in it; "got a list" would add nothing.
    const whole = issue.kind === 'validation' && typeof issue.input === 'object' && issue.input;
    return {
        ...where.value(path),
        message: `${issue.message}${whole ? '' : `; got ${(0,policy_problems/* shown */.SP)(issue.input)}`}. For example: ${exampleOf(top)}`
    };
}
/** A union's issues are its options'; keep those of the option the value was meant for. */
function meant(issue) {
    if (issue.type !== 'union' || !issue.issues)
        return [issue];
    // An option's issues have paths from the union's value on; a wrong type of the value itself is
    // the option the value was not meant for.
    const inner = issue.issues.filter(i => i.path?.length || i.kind === 'validation');
    if (!inner.length)
        return [issue];
    const path = issue.path ?? [];
    return inner
        .map(i => ({ ...i, path: [...path, ...(i.path ?? [])] }))
        .flatMap(meant);
}
/** The version a newer action wrote: refused before anything else, since its keys may be new. */
function newerVersion(where, value) {
    const version = value?.version;
    if (typeof version !== 'number' || version <= choices/* POLICY_VERSION */.Ky)
        return undefined;
    return {
        ...where.value(['version']),
        message: `${version} is a format written for a newer action; this one reads version ${choices/* POLICY_VERSION */.Ky}. Update the action in the workflow, or write the file for version ${choices/* POLICY_VERSION */.Ky}.`
    };
}
/** Where a rule across keys points: the key the file writes, else the preset that set it. */
function culprit(where, file, keys) {
    const written = keys.find(k => file[k] !== undefined);
    return written ? where.key([written]) : where.key(['extends']);
}
/** Why a limit needs the dashboard: its ledger is what holds it. */
const LEDGER_HOLDS = {
    'max-jobs': 'counts the jobs and follow-ups started, so without it nothing would hold the budget',
    'max-credits': 'counts the jobs and follow-ups the credits are estimated from, so without it nothing would hold the budget',
    'max-open': 'lists the docs pull requests open, so without it nothing would hold the cap',
    'expire-after': 'lists the docs pull requests to close, so without it none would ever be closed'
};
/**
 * `max-credits` counts the runs `credits-per-run` fits in it: none, and nothing would ever start
 * (the budget says the next place frees now, forever); more than the MAX_STARTS starts the ledger
 * keeps, and the budget would never hold. Named at the key the file writes, the other as it came.
 */
function creditProblems(where, file, values, from) {
    const credits = values['max-credits'];
    const perRun = values['credits-per-run'];
    if (credits === undefined)
        return [];
    const runs = Math.floor(credits / perRun);
    if (runs >= 1 && runs <= starts/* MAX_STARTS */.NV)
        return [];
    const at = culprit(where, file, ['max-credits', 'credits-per-run']);
    const stated = (key) => `${key}: ${values[key]}${from(key)}`;
    // The key a problem points at is named before its message: its value alone leads.
    const lead = (key) => at.key === key ? String(values[key]) : stated(key);
    const over = `${runs} jobs and follow-ups in 30 days, more than the ${starts/* MAX_STARTS */.NV} starts the dashboard's ledger keeps: the budget would never hold`;
    const message = at.key === 'credits-per-run'
        ? runs < 1
            ? `${lead('credits-per-run')} is more than ${stated('max-credits')}: no job or follow-up would ever fit, so nothing would start. Write credits-per-run: ${credits} or less, or a higher max-credits.`
            : `${lead('credits-per-run')} lets ${stated('max-credits')} allow ${over}. Write credits-per-run: ${Math.floor(credits / (starts/* MAX_STARTS */.NV + 1)) + 1} or more, or a lower max-credits.`
        : runs < 1
            ? `${lead('max-credits')} is less than ${stated('credits-per-run')}, the estimate of one job or follow-up: none would ever fit, so nothing would start. Write max-credits: ${perRun} or more, or a lower credits-per-run.`
            : `${lead('max-credits')} at ${stated('credits-per-run')} allows ${over}. Write max-credits: ${(starts/* MAX_STARTS */.NV + 1) * perRun - 1} or less, or a higher credits-per-run.`;
    return [{ ...at, message }];
}
/** The rules across keys, on the values after the preset: a preset can set one side. */
function crossKeyProblems(where, file, values, options) {
    const problems = [];
    const from = (key) => file[key] !== undefined
        ? ''
        : file.extends && presets/* PRESETS */.f[file.extends][key] !== undefined
            ? ` (from the preset ${file.extends})`
            : ' (the default)';
    problems.push(...creditProblems(where, file, values, from));
    if (values.approval === 'dashboard' && !values.dashboard)
        problems.push({
            ...culprit(where, file, ['dashboard', 'approval']),
            message: `approval: dashboard${from('approval')} needs dashboard: true: the changes wait for a tick on the dashboard issue. Write dashboard: true, or approval: none.`
        });
    if (!values.dashboard)
        for (const key of Object.keys(policy/* LEDGER_LIMITS */.Lv)) {
            if (values[key] === undefined)
                continue;
            // Every preset sets a limit, and no key unsets one: only leaving the preset does.
            const remove = file[key] === undefined && file.extends
                ? `extends: ${file.extends} (a key cannot unset what its preset sets)`
                : key;
            problems.push({
                ...culprit(where, file, ['dashboard', key]),
                message: `${key}${from(key)} needs dashboard: true: the dashboard's ledger ${LEDGER_HOLDS[key]}. Write dashboard: true, or remove ${remove}.`
            });
        }
    const repositories = values['code-repositories'];
    if (values.since !== undefined && !repositories.length)
        problems.push({
            // Named at since: the key leads the message.
            ...where.value(['since']),
            message: `needs code-repositories: it is how far back a code repository the dashboard has no last documented commit for is read. Remove it, or list the repositories.`
        });
    if (repositories.length && !values.dashboard)
        problems.push({
            ...culprit(where, file, ['dashboard', 'code-repositories']),
            message: `code-repositories needs dashboard: true: the dashboard's ledger keeps each code repository's last documented commit. Write dashboard: true, or remove code-repositories.`
        });
    const seen = new Set();
    repositories.forEach((entry, i) => {
        const name = typeof entry === 'string' ? entry : entry.repository;
        const key = (0,code_repositories/* repositoryKey */.Kq)(name);
        const at = where.value(typeof entry === 'string' ? ['code-repositories', i] : ['code-repositories', i, 'repository']);
        if (seen.has(key))
            problems.push({
                ...at,
                message: `lists ${name} a second time: keep one entry per repository.`
            });
        seen.add(key);
        if (options.repository && key === (0,code_repositories/* repositoryKey */.Kq)(options.repository))
            problems.push({
                ...at,
                message: `${name} is the repository this workflow runs in: its merges are the docs themselves, never documented again. List the code repositories only, or remove code-repositories to document this repository's own changes.`
            });
    });
    return problems;
}
/**
 * The policy a file's text sets, or a PolicyError naming each problem's line and key: YAML that
 * does not parse, a key set twice, a tag or an alias where a glob was meant, an unknown key, a
 * wrong value, a version of a newer action, a rule across keys. `file` is the path the messages
 * name. The YAML parser is loaded here only, when there is a file to read.
 */
async function readPolicy(text, file, options = {}) {
    const size = (0,runner_text/* bytes */.ee)(text);
    if (size > choices/* MAX_POLICY_BYTES */.mk)
        throw new policy_problems/* PolicyError */.pn(file, [
            {
                message: `is ${Math.ceil(size / 1024)} KB; a policy file is at most ${choices/* MAX_POLICY_BYTES */.mk / 1024} KB. Is the path the policy file's?`
            }
        ]);
    const yaml = await __webpack_require__.e(/* import() */ 815).then(__webpack_require__.t.bind(__webpack_require__, 8815, 19));
    const lines = new yaml.LineCounter();
    const doc = yaml.parseDocument(text, {
        lineCounter: lines,
        prettyErrors: false,
        uniqueKeys: true,
        stringKeys: true,
        merge: false,
        version: '1.2',
        schema: 'core'
    });
    const where = new Locator(text, doc, lines);
    // One problem a line: what follows a broken line is often the same mistake, seen again.
    const syntax = [];
    for (const error of doc.errors) {
        const at = where.at(error.pos[0]);
        if (syntax.some(p => p.line === at.line))
            continue;
        const line = text.split('\n')[(at.line ?? 1) - 1] ?? '';
        syntax.push({
            // The innermost path of broken YAML may be what the parser made of it: name the key only.
            ...where.at(error.pos[0], pathName(where.pathAt(error.pos[0]).slice(0, 1))),
            message: syntaxMessage(error.code, error.message, line)
        });
    }
    if (syntax.length)
        throw new policy_problems/* PolicyError */.pn(file, syntax);
    const nodes = nodeProblems(yaml, where);
    if (nodes.length)
        throw new policy_problems/* PolicyError */.pn(file, inOrder(nodes));
    let value;
    try {
        value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
    }
    catch {
        // The one error toJS throws once the aliases resolve: too many of them.
        throw new policy_problems/* PolicyError */.pn(file, [
            {
                message: `its aliases (*name) expand to more than ${MAX_ALIAS_COUNT} values: write the lists out.`
            }
        ]);
    }
    if (typeof value !== 'object' || Array.isArray(value))
        throw new policy_problems/* PolicyError */.pn(file, [
            {
                ...where.at(doc.contents?.range[0] ?? 0),
                message: `must be a mapping of keys such as extends: standard; got ${(0,policy_problems/* shown */.SP)(value)}.`
            }
        ]);
    const newer = newerVersion(where, value);
    if (newer)
        throw new policy_problems/* PolicyError */.pn(file, [newer]);
    // valibot names the first unknown key of a mapping; name them all, the file's own mistakes first.
    const unknown = Object.keys(value)
        .filter(name => !Object.hasOwn(schema/* POLICY_SCHEMA */.tD.entries, name))
        .map(name => ({ ...where.key([name]), message: unknownKeyMessage(name) }));
    const parsed = dist/* safeParse */.xLC(schema/* POLICY_SCHEMA */.tD, value, { abortPipeEarly: true });
    if (!parsed.success || unknown.length)
        throw new policy_problems/* PolicyError */.pn(file, inOrder([
            ...unknown,
            ...(parsed.issues ?? [])
                .filter(i => !(i.type === 'strict_object' && i.path?.length === 1))
                .flatMap(meant)
                .map(i => issueProblem(where, i))
        ]));
    const values = (0,policy/* policyValues */.hm)(parsed.output);
    const rules = crossKeyProblems(where, parsed.output, values, options);
    if (rules.length)
        throw new policy_problems/* PolicyError */.pn(file, inOrder(rules));
    return (0,policy/* resolvePolicy */.nZ)(values, file);
}


/***/ })

};
