// conninfo.mjs — one libpq connection string, two clients: `ringbench pg worker` (libpq) and
// graphile-worker (node-postgres) must reach the same server and database.
//
// parseConninfo(s): a libpq conninfo, `key=value ...` (values optionally single-quoted, `\`
// escapes) or a `postgres://` / `postgresql://` URI (user info, one host, port, path = dbname,
// query parameters = keys), into a plain object {keyword: value}. An empty string gives {}
// (both clients then read PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD). Throws Error with
// a message on a malformed string. Multi-host lists are not supported (throws).
//
// toLibpq(o): the object as a key=value string, every value quoted.
// toNodePg(o): a node-postgres client config: host (a directory = Unix socket), port, user,
// password, database, options, application_name, connectionTimeoutMillis and ssl from
// sslmode (disable: off; require / prefer / allow: on without verification; verify-ca /
// verify-full: on, verified). Other keywords are not mapped (libpq-only settings).

export function parseConninfo(s) {
    const str = (s || '').trim();
    if (/^postgres(ql)?:\/\//.test(str)) return parseUri(str);
    const out = {};
    let i = 0;
    const ws = () => {
        while (i < str.length && /\s/.test(str[i])) i++;
    };
    while (ws(), i < str.length) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*/.exec(str.slice(i));
        if (!m) throw new Error(`bad conninfo near '${str.slice(i, i + 20)}'`);
        i += m[0].length;
        let v = '';
        if (str[i] === "'") {
            for (i++; i < str.length && str[i] !== "'"; i++) v += str[i] === '\\' ? str[++i] : str[i];
            if (str[i] !== "'") throw new Error(`bad conninfo: unterminated quote in ${m[1]}`);
            i++;
        } else {
            for (; i < str.length && !/\s/.test(str[i]); i++) v += str[i] === '\\' ? str[++i] : str[i];
        }
        out[m[1]] = v;
    }
    return out;
}

function parseUri(str) {
    let u;
    try {
        u = new URL(str); // postgres: is not a special scheme: an empty host stays empty
    } catch (e) {
        throw new Error(`bad conninfo URI: ${e.message}`);
    }
    if (u.hostname.includes(',')) throw new Error('bad conninfo URI: multi-host lists are not supported');
    const out = {};
    if (u.hostname) out.host = decodeURIComponent(u.hostname.replace(/^\[|\]$/g, ''));
    if (u.port) out.port = u.port;
    if (u.username) out.user = decodeURIComponent(u.username);
    if (u.password) out.password = decodeURIComponent(u.password);
    const db = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (db) out.dbname = db;
    for (const [k, v] of u.searchParams) out[k] = v;
    return out;
}

export function toLibpq(o) {
    return Object.entries(o)
        .map(([k, v]) => `${k}='${String(v).replace(/[\\']/g, (c) => '\\' + c)}'`)
        .join(' ');
}

export function toNodePg(o) {
    const c = {};
    if (o.host !== undefined) c.host = o.host;
    else if (o.hostaddr !== undefined) c.host = o.hostaddr;
    if (o.port !== undefined) c.port = Number(o.port);
    if (o.user !== undefined) c.user = o.user;
    if (o.password !== undefined) c.password = o.password;
    if (o.dbname !== undefined) c.database = o.dbname;
    if (o.options !== undefined) c.options = o.options;
    if (o.application_name !== undefined) c.application_name = o.application_name;
    if (o.connect_timeout !== undefined) c.connectionTimeoutMillis = 1000 * Number(o.connect_timeout);
    if (o.sslmode !== undefined && o.sslmode !== 'disable')
        c.ssl = /^verify-/.test(o.sslmode) ? true : { rejectUnauthorized: false };
    return c;
}
