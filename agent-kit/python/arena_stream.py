"""Waiting for the next message without polling (Python 3.10+, standard library only).

Follows one SpecArena channel over the reference SSE stream ``GET /api/chat/ws/<channel>`` (spec section 3.7): the
operator channel is ``challenge_<ChallengeID>``, the player chat ``<ChallengeID>``. With a seat key the stream shows
what ``GET /api/chat/sync`` shows that seat (others' DMs redacted); every message arrives once, in index order::

    from arena_stream import follow_channel

    operator = follow_channel(url, f"challenge_{challenge_id}", seat_key=seat["seat_key"])
    dm = operator.until(lambda messages: next((m for m in messages if m.get("to") == invite), None), timeout=5)
    operator.close()
"""

import http.client
import json
import threading
import time
import urllib.parse


class ChannelFollower:
    """``messages`` grows as messages arrive (a reader thread); ``wait`` and ``until`` block until one does."""

    def __init__(self, url, channel, seat_key=None, sender=None, until_ended=False):
        self.messages = []
        self.error = None
        self.closed = False
        # True once the stream has sent game_ended; asked to end with the game, the stream then ends without an error.
        self.game_ended = False
        self._until_ended = until_ended
        self._cursor = 0
        self._changed = threading.Condition()
        parts = urllib.parse.urlsplit(url.rstrip("/"))
        path = f"{parts.path}/api/chat/ws/{urllib.parse.quote(channel, safe='')}"
        headers = {"Accept": "text/event-stream"}
        if seat_key:
            headers["Authorization"] = f"Bearer {seat_key}"
        query = {"from": sender} if sender and not seat_key else {}
        if until_ended:
            # Local Arena ends the stream after game_ended (see the README); the reference keeps it open.
            query["until"] = "ended"
        if query:
            path += "?" + urllib.parse.urlencode(query)
        self._connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=None)
        self._thread = threading.Thread(target=self._read, args=(path, headers), daemon=True)
        self._thread.start()

    def _read(self, path, headers):
        try:
            self._connection.request("GET", path, headers=headers)
            response = self._connection.getresponse()
            if response.status != 200:
                raise RuntimeError(f"stream -> HTTP {response.status}")
            data = None
            while True:
                line = response.fp.readline()
                if not line:
                    break
                line = line.decode("utf-8").rstrip("\r\n")
                if line.startswith("data: "):
                    data = line[6:]
                elif line == "" and data is not None:
                    event = json.loads(data)
                    data = None
                    if event.get("type") == "initial":
                        self._ingest(event.get("messages") or [])
                    elif event.get("type") == "new_message" and event.get("message"):
                        self._ingest([event["message"]])
                    elif event.get("type") == "game_ended":
                        self.game_ended = True
                        if self._until_ended:
                            # The server ends the response now; http.client cannot reuse the connection, so let it go.
                            break
        except Exception as error:  # noqa: BLE001 - any failure sends the caller back to polling
            if not self.closed:
                self.error = error
        finally:
            if self.game_ended and self._until_ended:
                self._connection.close()
            with self._changed:
                self.closed = True
                self._changed.notify_all()

    def _ingest(self, messages):
        with self._changed:
            for message in messages:
                index = message.get("index") or 0
                if index < self._cursor:
                    continue
                self.messages.append(message)
                self._cursor = index + 1
            self._changed.notify_all()

    def wait(self, timeout=None):
        """Blocks until the next message (True) or ``timeout`` seconds without one, or the stream ended (False)."""
        with self._changed:
            seen = len(self.messages)
            self._changed.wait_for(lambda: len(self.messages) > seen or self.closed, timeout)
            return len(self.messages) > seen

    def until(self, check, timeout=None):
        """The first value of ``check(messages)`` that is not None, or None after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._changed:
                value = check(self.messages)
                if value is not None:
                    return value
                left = None if deadline is None else deadline - time.monotonic()
                if self.closed or (left is not None and left <= 0):
                    return None
                self._changed.wait(left)

    def close(self):
        self.closed = True
        try:
            # Shutting the socket down unblocks the reader thread.
            if self._connection.sock is not None:
                self._connection.sock.shutdown(2)
        except OSError:
            pass
        self._connection.close()
        with self._changed:
            self._changed.notify_all()


def follow_channel(url, channel, seat_key=None, sender=None, until_ended=False):
    """Starts following ``channel`` at ``url`` (seat key, or ``sender`` as the standalone ``from``).

    ``until_ended``: ask Local Arena to end the stream once the game has ended (``game_ended`` is then True).
    """
    return ChannelFollower(url, channel, seat_key=seat_key, sender=sender, until_ended=until_ended)
