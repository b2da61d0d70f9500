import type { PGlite } from '@electric-sql/pglite';
import { escapeIdentifier } from 'pg';
import type pg from 'pg';
import { sqlLiteral } from './sql-literal.js';

/** A statement with a fixed text, prepared under `name` (PostgreSQL). */
export interface Statement {
  name: string;
  text: string;
}

/** A statement with its values, to be sent with others; undefined where a statement is not needed this time. */
export type StatementCall = { statement: Statement; values: unknown[] } | undefined;
/** The calls of `Transaction.runTogether`, one per row type of `R`. */
export type StatementCalls<R extends unknown[]> = { [K in keyof R]: StatementCall };
/** Their answers: each call's rows, in order (none for a call left undefined). */
export type RowsOf<R extends unknown[]> = { [K in keyof R]: R[K][] };

/**
 * The statements of one transaction (`Database.transaction`). Each method answers when the database has. A statement
 * that fails ends the transaction: it is rolled back (the statements after it in its message do not run), and the
 * error is thrown by the method, then by `Database.transaction` even if the work caught it.
 */
export interface Transaction {
  /** Runs one statement (any statement PostgreSQL runs with parameters) and answers its rows. */
  run<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /**
   * Sends the statements together, in one message on PostgreSQL (with the BEGIN if nothing was sent before), and
   * answers each one's rows. They run in order, each seeing what the ones before it did: for statements that do not
   * need each other's answers. Each must be one PostgreSQL can PREPARE (select, insert, update, delete, values).
   */
  runTogether<R extends unknown[]>(calls: StatementCalls<R>): Promise<RowsOf<R>>;
  /**
   * As `runTogether`, with the COMMIT in the same message: once it answers, the transaction has committed and
   * nothing more can be sent in it; if it throws, nothing of the transaction was committed.
   */
  commitWith<R extends unknown[]>(calls: StatementCalls<R>): Promise<RowsOf<R>>;
}
/** Sends calls together; answers each one's rows. */
type SendTogether = (calls: readonly StatementCall[]) => Promise<unknown[][]>;
const typed = (send: SendTogether) => send as Transaction['runTogether'];

type State = { is: 'open' } | { is: 'committed' } | { is: 'failed'; error: unknown };

function assertOpen(state: State): void {
  if (state.is !== 'open') {
    throw new Error('the transaction has ended: nothing more can be sent in it', {
      cause: state.is === 'failed' ? state.error : undefined,
    });
  }
}

/**
 * A transaction on PGlite's one connection. Statements sent together run one after another (in process, a round
 * trip costs nothing); the COMMIT of `commitWith` is PGlite's own, as the callback returns.
 */
export async function pgliteTransaction<T>(input: {
  client: PGlite;
  work: (tx: Transaction) => Promise<T>;
  /** Called once the connection is ours, before anything is sent; throws if nothing may be sent. */
  begin: () => void;
}): Promise<T> {
  let state: State = { is: 'open' };
  let thrownAfterCommit: { error: unknown } | undefined;
  const result = await input.client.transaction(async (pglite) => {
    input.begin();
    const run = async <R>(statement: Statement, values: unknown[]): Promise<R[]> => {
      assertOpen(state);
      try {
        return (await pglite.query<R>(statement.text, values)).rows;
      } catch (error) {
        state = { is: 'failed', error };
        throw error;
      }
    };
    const together: SendTogether = async (calls) => {
      assertOpen(state);
      const answers: unknown[][] = [];
      for (const call of calls) answers.push(call ? await run(call.statement, call.values) : []);
      return answers;
    };
    const tx: Transaction = {
      run,
      runTogether: typed(together),
      commitWith: typed(async (calls) => {
        const answers = await together(calls);
        state = { is: 'committed' };
        return answers;
      }),
    };
    try {
      const out = await input.work(tx);
      if (state.is === 'failed') throw state.error;
      return { out };
    } catch (error) {
      if (state.is !== 'committed') throw error;
      // Committed by commitWith: PGlite commits as this callback returns, and the error is thrown after that.
      thrownAfterCommit = { error };
      return undefined;
    }
  });
  if (thrownAfterCommit || !result) throw thrownAfterCommit?.error;
  return result.out;
}

/** The statements that begin a transaction whose lock waits end after `leftMs` (0: no limit of its own). */
const beginWithin = (leftMs: number) =>
  leftMs > 0 ? ['begin', `set local lock_timeout = ${Math.floor(leftMs)}`] : ['begin'];

/**
 * The statements each connection has prepared by SQL (PREPARE), by name; a connection the pool opens anew has none.
 * They are named `sql_` + the statement's name: node-postgres prepares `run`'s statements under their own names
 * (Parse), in the same namespace, and the two must not meet.
 */
const preparedBySql = new WeakMap<pg.ClientBase, Set<string>>();
const sqlName = (statement: Statement) => escapeIdentifier(`sql_${statement.name}`);

const executeText = (call: NonNullable<StatementCall>) =>
  call.values.length === 0
    ? `execute ${sqlName(call.statement)}`
    : `execute ${sqlName(call.statement)}(${call.values.map(sqlLiteral).join(', ')})`;

/**
 * A transaction on one connection of the pool, begun within `leftMs` (its lock waits end then). Statements sent
 * together go as one simple-protocol message: `execute` of each, its values as literals (`sqlLiteral`), preceded by
 * the PREPARE of those this connection has not prepared yet and, in the first message, by the BEGIN; `commitWith`
 * adds the COMMIT. `run` sends one statement with node-postgres's extended protocol (the BEGIN before it if needed).
 * `finish` commits what is still open; `abandon` rolls it back; `broken` says whether the connection must be dropped.
 */
export function postgresTransaction(client: pg.PoolClient, leftMs: number) {
  const toBegin = beginWithin(leftMs);
  let begun = false;
  let state: State = { is: 'open' };
  let broken: Error | undefined;
  const prepared = preparedBySql.get(client) ?? new Set<string>();
  preparedBySql.set(client, prepared);

  /** Rolls back (after a failed statement, or work that threw); `alsoRead`: the names prepared by SQL, anew. */
  const rollback = async (alsoRead?: 'prepared') => {
    try {
      const text = alsoRead ? 'rollback; select name from pg_prepared_statements where from_sql' : 'rollback';
      const answers = asList(await client.query(text));
      if (alsoRead) {
        prepared.clear();
        for (const row of answers[1]?.rows ?? []) prepared.add(escapeIdentifier(String(row.name)));
      }
    } catch (err) {
      // A connection that cannot even roll back is dropped rather than handed to the next caller.
      broken = err instanceof Error ? err : new Error(String(err));
    }
  };
  const failed = async (error: unknown, alsoRead?: 'prepared') => {
    state = { is: 'failed', error };
    if (begun) await rollback(alsoRead);
    return error;
  };

  const run = async <R>(statement: Statement, values: unknown[]): Promise<R[]> => {
    assertOpen(state);
    try {
      if (!begun) {
        begun = true;
        await client.query(toBegin.join('; '));
      }
      return (await client.query<R & pg.QueryResultRow>({ name: statement.name, text: statement.text, values })).rows;
    } catch (error) {
      throw await failed(error);
    }
  };

  const send = async (calls: readonly StatementCall[], commit: boolean): Promise<unknown[][]> => {
    assertOpen(state);
    const sent = calls.filter((c) => c !== undefined);
    const executes = sent.map(executeText); // throws for a value that has no literal, before anything is sent
    if (commit) state = { is: 'committed' };
    if (sent.length === 0 && !(commit && begun)) return calls.map(() => []);
    const prepares = new Map<string, string>();
    for (const { statement } of sent) {
      const name = sqlName(statement);
      if (!prepared.has(name)) prepares.set(name, `prepare ${name} as ${statement.text}`);
    }
    const beginning = begun ? [] : toBegin;
    begun = true;
    const texts = [...prepares.values(), ...beginning, ...executes, ...(commit ? ['commit'] : [])];
    let answers: pg.QueryResult[];
    try {
      answers = asList(await client.query(texts.join(';\n')));
    } catch (error) {
      // Which PREPAREs of the message ran is not known: the rollback reads them anew.
      throw await failed(error, prepares.size > 0 ? 'prepared' : undefined);
    }
    for (const name of prepares.keys()) prepared.add(name);
    if (answers.length !== texts.length) {
      throw new Error(`${texts.length} statements were sent together and ${answers.length} answered`);
    }
    const rows = answers.slice(prepares.size + beginning.length).map((a) => a.rows as unknown[]);
    let next = 0;
    return calls.map((c) => (c ? (rows[next++] ?? []) : []));
  };

  return {
    statements: {
      run,
      runTogether: typed((calls) => send(calls, false)),
      commitWith: typed((calls) => send(calls, true)),
    } satisfies Transaction,
    /** Commits what `work` left open; throws the failure of a statement even if `work` caught it. */
    async finish(): Promise<void> {
      if (state.is === 'failed') throw state.error;
      if (state.is === 'committed' || !begun) return;
      state = { is: 'committed' };
      try {
        await client.query('commit');
      } catch (error) {
        throw await failed(error);
      }
    },
    /** Rolls back what `work` left open when it threw. */
    async abandon(): Promise<void> {
      if (state.is !== 'open') return;
      state = { is: 'failed', error: undefined };
      if (begun) await rollback();
    },
    broken: () => broken,
  };
}

/** node-postgres answers one result for one statement, and a list for several. */
function asList(answer: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] {
  return Array.isArray(answer) ? answer : [answer];
}
