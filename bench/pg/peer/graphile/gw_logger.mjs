// gw_logger.mjs — the graphile-worker logger of the peer (driver and worker processes):
// warnings and errors to stderr, info and debug dropped (graphile-worker logs a line per job
// otherwise; a user draining many jobs turns that off too). Logger: graphile-worker's class.
export function quietLogger(Logger) {
    return new Logger(() => (level, message) => {
        if (level === 'error' || level === 'warning') process.stderr.write(`graphile-worker ${level}: ${message}\n`);
    });
}
