export const id = 599;
export const ids = [599];
export const modules = {

/***/ 8599:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   countedRun: () => (/* binding */ countedRun)
/* harmony export */ });
/* harmony import */ var _runner_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7156);
/* harmony import */ var _dashboard_choice_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8520);
/* harmony import */ var _run_ledger_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4212);



/**
 * With a budget, a job or follow-up started outside the dashboard's batch counts against it: it is
 * written on the dashboard once the service accepted it.
 * - A person's request (an issue, a comment, a review; `hold: false`): a dashboard that cannot be
 *   read or written costs it nothing but a warning.
 * - A change run on its own (`hold: true`: a pull request not merged yet, another branch) starts by
 *   itself on every push: the budget gate may hold it (it reads `ledger`), and a dashboard that
 *   cannot be read or written stops it, as it would stop a change run with the ledger.
 */
async function countedRun(settings, event, deps, run) {
    const { log, clock } = deps;
    let ledger;
    try {
        const github = deps.session.repository(settings.githubToken, event);
        ledger = (await (0,_run_ledger_js__WEBPACK_IMPORTED_MODULE_2__/* .openRunLedger */ .f)(github, settings, event, clock, {
            signal: deps.signal,
            warn: message => log.warning(message)
        })).session;
        if (run.hold)
            await ledger.ensureWritable();
    }
    catch (error) {
        // A newer version keeps the ledger: this one may not start what it cannot count there.
        if (error instanceof _dashboard_choice_js__WEBPACK_IMPORTED_MODULE_1__/* .NewerLedgerError */ .dz)
            throw error;
        if (run.hold)
            throw new _runner_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ExplainedError */ .hM(`${(0,_runner_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .errorText */ .kc)(error)} With 'max-jobs', ${run.what} starts a job only once the dashboard can count it.`);
        log.warning(`${(0,_runner_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .errorText */ .kc)(error)} This run's job is not counted against 'max-jobs'; the run goes on.`);
        return {};
    }
    // What the dashboard says on the way (found by its title, created, reopened) is the user's to see,
    // as in a change run: what opening it said goes with the run's notices, what counting says after.
    const opened = [...ledger.notices];
    const count = async (job, followUp, note) => {
        const known = ledger.notices.length;
        try {
            await ledger.counted(job, followUp, note);
            for (const notice of ledger.notices.slice(known))
                log.notice(notice);
        }
        catch (error) {
            log.warning(`The dashboard could not count this run's ${followUp ? 'follow-up' : 'job'} against 'max-jobs': ${(0,_runner_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .errorText */ .kc)(error)}`);
        }
    };
    return {
        dashboardUrl: ledger.url,
        ledger,
        notices: opened,
        hooks: {
            accepted: (job, followUp) => count(job, followUp, `from ${run.what}`),
            // No answer came: it may have started a job, and a job may cost credits.
            uncertain: (followUp, why, jobId) => count(jobId ? { id: jobId } : undefined, followUp, `from ${run.what}, uncertain: ${why}`),
            finished: async () => { }
        }
    };
}


/***/ })

};
