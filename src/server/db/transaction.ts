import type { Db, Tx } from './connect.js';

/**
 * What a service that writes takes: the database, or a transaction its caller already opened. Its
 * own `transaction()` then runs as a savepoint inside the caller's, so the whole stays one commit.
 */
export type DbOrTx = Db | Tx;
