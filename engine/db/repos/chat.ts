// Chat channels: 1-based, gap-free indices assigned inside the writer's transaction.
import type Database from 'better-sqlite3';
import type { ChatMessage } from '../../contract/specarena.js';

interface ChatRow {
  channel: string;
  idx: number;
  sender: string;
  recipient: string | null;
  content: string;
  timestamp: number;
}

function fromRow(row: ChatRow): ChatMessage {
  const message: ChatMessage = { channel: row.channel, from: row.sender, content: row.content, index: row.idx, timestamp: row.timestamp };
  // A broadcast has no `to` key at all (spec §5.1), so only DMs get one.
  if (row.recipient !== null) message.to = row.recipient;
  return message;
}

export function createChatRepo(db: Database.Database) {
  // Two plain statements cost SQLite about half of one INSERT ... SELECT MAX ... RETURNING (bench:api).
  const lastIndex = db.prepare('SELECT MAX(idx) FROM chat_messages WHERE channel = ?').pluck();
  const insert = db.prepare('INSERT INTO chat_messages (channel, idx, sender, recipient, content, timestamp) VALUES (?, ?, ?, ?, ?, ?)');
  const since = db.prepare(
    'SELECT channel, idx, sender, recipient, content, timestamp FROM chat_messages WHERE channel = ? AND idx >= ? ORDER BY idx',
  );
  const removeChannel = db.prepare('DELETE FROM chat_messages WHERE channel = ?');

  return {
    /** Appends at the channel's next index; call inside the writer's transaction, which keeps the two steps atomic. */
    append(channel: string, from: string, content: string, timestamp: number, to?: string | null): ChatMessage {
      const idx = ((lastIndex.get(channel) as number | null) ?? 0) + 1;
      insert.run(channel, idx, from, to ?? null, content, timestamp);
      const message: ChatMessage = { channel, from, content, index: idx, timestamp };
      if (to !== undefined && to !== null) message.to = to;
      return message;
    },
    /** Messages with index >= start, in index order. */
    since(channel: string, start: number): ChatMessage[] {
      return (since.all(channel, start) as ChatRow[]).map(fromRow);
    },
    deleteChannel(channel: string): void {
      removeChannel.run(channel);
    },
  };
}

export type ChatRepo = ReturnType<typeof createChatRepo>;
