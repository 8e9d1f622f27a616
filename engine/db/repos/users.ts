// User profiles. Updates merge: omitted fields keep their stored values (decision 11(g)).
import type Database from 'better-sqlite3';
import type { UserProfile } from '../../contract/specarena.js';

interface UserRow {
  user_id: string;
  username: string | null;
  model: string | null;
  is_benchmark: number;
}

function fromRow(row: UserRow): UserProfile {
  const profile: UserProfile = { userId: row.user_id };
  if (row.username !== null) profile.username = row.username;
  if (row.model !== null) profile.model = row.model;
  if (row.is_benchmark) profile.isBenchmark = true;
  return profile;
}

export function createUsersRepo(db: Database.Database) {
  const get = db.prepare('SELECT * FROM users WHERE user_id = ?');
  const all = db.prepare('SELECT * FROM users ORDER BY user_id');
  const many = db.prepare('SELECT * FROM users WHERE user_id IN (SELECT value FROM json_each(?))');
  const upsert =
    db.prepare(`INSERT INTO users (user_id, username, model, is_benchmark) VALUES (@userId, @username, @model, COALESCE(@isBenchmark, 0))
    ON CONFLICT (user_id) DO UPDATE SET
      username = COALESCE(@username, username),
      model = COALESCE(@model, model),
      is_benchmark = COALESCE(@isBenchmark, is_benchmark)`);

  return {
    get(userId: string): UserProfile | undefined {
      const row = get.get(userId) as UserRow | undefined;
      return row && fromRow(row);
    },
    getMany(userIds: readonly string[]): Record<string, UserProfile> {
      const out: Record<string, UserProfile> = {};
      if (userIds.length === 0) return out;
      for (const row of many.all(JSON.stringify([...new Set(userIds)])) as UserRow[]) out[row.user_id] = fromRow(row);
      return out;
    },
    list(): UserProfile[] {
      return (all.all() as UserRow[]).map(fromRow);
    },
    merge(update: { userId: string; username?: string; model?: string; isBenchmark?: boolean }): UserProfile {
      upsert.run({
        userId: update.userId,
        username: update.username ?? null,
        model: update.model ?? null,
        isBenchmark: update.isBenchmark === undefined ? null : update.isBenchmark ? 1 : 0,
      });
      return fromRow(get.get(update.userId) as UserRow);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
