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
  const append = db.prepare(`INSERT INTO chat_messages (channel, idx, sender, recipient, content, timestamp)
    SELECT @channel, COALESCE(MAX(idx), 0) + 1, @from, @to, @content, @timestamp FROM chat_messages WHERE channel = @channel
    RETURNING idx`);
  const since = db.prepare(
    'SELECT channel, idx, sender, recipient, content, timestamp FROM chat_messages WHERE channel = ? AND idx >= ? ORDER BY idx',
  );
  const removeChannel = db.prepare('DELETE FROM chat_messages WHERE channel = ?');

  return {
    append(channel: string, from: string, content: string, timestamp: number, to?: string | null): ChatMessage {
      const { idx } = append.get({ channel, from, to: to ?? null, content, timestamp }) as { idx: number };
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
