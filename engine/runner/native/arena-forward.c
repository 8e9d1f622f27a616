/*
 * arena-forward: the sandbox's side of an endpoint forward (see endpoint-forward.ts). Inside a sandbox whose network
 * namespace has only a loopback interface, it listens on HOST:PORT for each forward and joins every accepted TCP
 * connection to a new connection on the forward's Unix socket, which the engine serves from outside.
 *
 *   arena-forward HOST PORT SOCKET [HOST PORT SOCKET]...
 *
 * Every listener is bound and listening before the command returns: the parent binds them all, forks the process
 * that serves them and exits 0, so the launch script can start the agent right after it with no readiness poll.
 * Exits 125 with one line on stderr when an address cannot be used. One small static program replaces a socat per
 * endpoint: socat's start (its shared libraries, OpenSSL's among them) was most of what a forward added to a launch.
 *
 * One thread, one poll() loop; each joined pair has a buffer per direction, so a slow reader only stalls its own pair.
 * Half-closes are passed on (HTTP clients may shut their write side and still read the answer).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define BUFFER_BYTES 32768
#define BACKLOG 128

struct listener {
  int fd;
  const char *socket_path;
};

struct direction {
  char *data;
  size_t start, end;
  int eof;      /* the source said it will send no more */
  int shut;     /* the end of stream was passed to the sink */
};

struct pair {
  int tcp, unix_fd;
  struct direction up;   /* tcp → unix */
  struct direction down; /* unix → tcp */
};

static struct listener *listeners;
static size_t listener_count;
static struct pair **pairs;
static size_t pair_count, pair_capacity;
static int accept_paused; /* out of descriptors: wait for a pair to close before accepting again */

static void fail(const char *what, const char *host, const char *port) {
  fprintf(stderr, "arena sandbox: the arena forwarder could not %s %s:%s (%s)\n", what, host, port, strerror(errno));
  exit(125);
}

static void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

static int listen_on(const char *host, const char *port) {
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  char *end = NULL;
  long number = strtol(port, &end, 10);
  if (*port == '\0' || *end != '\0' || number < 1 || number > 65535 || inet_pton(AF_INET, host, &address.sin_addr) != 1) {
    errno = EINVAL;
    fail("use the address", host, port);
  }
  address.sin_port = htons((unsigned short)number);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("open a socket for", host, port);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("bind", host, port);
  if (listen(fd, BACKLOG) != 0) fail("listen on", host, port);
  set_nonblocking(fd);
  return fd;
}

static int connect_unix(const char *file) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (strlen(file) >= sizeof address.sun_path) return -1;
  strcpy(address.sun_path, file);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  /* Blocking on purpose: a local connect completes at once unless the engine's backlog is full. */
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    close(fd);
    return -1;
  }
  set_nonblocking(fd);
  return fd;
}

static void close_pair(size_t index) {
  struct pair *p = pairs[index];
  close(p->tcp);
  close(p->unix_fd);
  free(p->up.data);
  free(p->down.data);
  free(p);
  pairs[index] = pairs[--pair_count];
  accept_paused = 0;
}

static void accept_from(struct listener *l) {
  for (;;) {
    int tcp = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (tcp < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) accept_paused = 1;
      return; /* EAGAIN, or a connection that went away before it was accepted */
    }
    int one = 1;
    /* Without it Nagle holds a small answer back until the agent acknowledges the last one (a delayed-ACK wait). */
    setsockopt(tcp, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int unix_fd = connect_unix(l->socket_path);
    struct pair *p = unix_fd < 0 ? NULL : calloc(1, sizeof *p);
    char *up = p ? malloc(BUFFER_BYTES) : NULL;
    char *down = up ? malloc(BUFFER_BYTES) : NULL;
    if (pair_count == pair_capacity && down) {
      size_t capacity = pair_capacity ? pair_capacity * 2 : 64;
      struct pair **grown = realloc(pairs, capacity * sizeof *grown);
      if (grown) {
        pairs = grown;
        pair_capacity = capacity;
      }
    }
    if (!down || pair_count == pair_capacity) {
      /* The engine refused or memory ran out: the agent sees its connection closed, like a refused connect. */
      free(down);
      free(up);
      free(p);
      if (unix_fd >= 0) close(unix_fd);
      close(tcp);
      continue;
    }
    p->tcp = tcp;
    p->unix_fd = unix_fd;
    p->up.data = up;
    p->down.data = down;
    pairs[pair_count++] = p;
  }
}

/*
 * Moves what it can from `from` into d, then from d to `to` (tried at once: the sink is usually ready, and waiting for
 * the next poll would cost a loop per chunk); returns -1 when the pair is broken.
 */
static int pump(int from, int to, struct direction *d, short from_events) {
  if (!d->eof && d->end < BUFFER_BYTES && (from_events & (POLLIN | POLLHUP | POLLERR))) {
    ssize_t n = read(from, d->data + d->end, BUFFER_BYTES - d->end);
    if (n > 0) d->end += (size_t)n;
    else if (n == 0) d->eof = 1;
    else if (errno != EAGAIN && errno != EINTR) return -1;
  }
  if (d->start < d->end) {
    ssize_t n = send(to, d->data + d->start, d->end - d->start, MSG_NOSIGNAL);
    if (n > 0) d->start += (size_t)n;
    else if (n < 0 && errno != EAGAIN && errno != EINTR) return -1;
    if (d->start == d->end) d->start = d->end = 0;
  }
  if (d->eof && d->start == d->end && !d->shut) {
    shutdown(to, SHUT_WR);
    d->shut = 1;
  }
  return 0;
}

static void abandon(struct direction *d) {
  d->start = d->end = 0;
  d->eof = d->shut = 1;
}

static short wanted(const struct direction *reading, const struct direction *writing) {
  short events = 0;
  if (!reading->eof && reading->end < BUFFER_BYTES) events |= POLLIN;
  if (writing->start < writing->end) events |= POLLOUT;
  return events;
}

static void serve(void) {
  struct pollfd *fds = NULL;
  size_t fds_capacity = 0;
  for (;;) {
    size_t needed = listener_count + 2 * pair_count;
    if (needed > fds_capacity) {
      fds_capacity = needed * 2;
      fds = realloc(fds, fds_capacity * sizeof *fds);
      if (!fds) exit(1);
    }
    for (size_t i = 0; i < listener_count; i++) {
      fds[i].fd = accept_paused ? -1 : listeners[i].fd;
      fds[i].events = POLLIN;
      fds[i].revents = 0;
    }
    size_t at = listener_count;
    for (size_t i = 0; i < pair_count; i++, at += 2) {
      struct pair *p = pairs[i];
      short tcp_wants = wanted(&p->up, &p->down), unix_wants = wanted(&p->down, &p->up);
      /* A descriptor we want nothing from is left out: its hang-up would otherwise wake the loop again and again. */
      fds[at] = (struct pollfd){.fd = tcp_wants ? p->tcp : -1, .events = tcp_wants};
      fds[at + 1] = (struct pollfd){.fd = unix_wants ? p->unix_fd : -1, .events = unix_wants};
    }
    if (poll(fds, needed, -1) < 0) {
      if (errno == EINTR) continue;
      exit(1);
    }
    /* Pairs first, from the end, so closing one (which moves the last into its place) never skips a pair. */
    for (size_t i = pair_count; i-- > 0;) {
      struct pair *p = pairs[i];
      short tcp_events = fds[listener_count + 2 * i].revents;
      short unix_events = fds[listener_count + 2 * i + 1].revents;
      if (!tcp_events && !unix_events) continue;
      int broken = pump(p->tcp, p->unix_fd, &p->up, tcp_events) < 0 || pump(p->unix_fd, p->tcp, &p->down, unix_events) < 0;
      /* A side that hung up and has said its last takes nothing more: what is still meant for it is dropped. */
      if ((tcp_events & (POLLHUP | POLLERR)) && p->up.eof) abandon(&p->down);
      if ((unix_events & (POLLHUP | POLLERR)) && p->down.eof) abandon(&p->up);
      if (broken || (p->up.shut && p->down.shut)) close_pair(i);
    }
    for (size_t i = 0; i < listener_count; i++)
      if (fds[i].revents & POLLIN) accept_from(&listeners[i]);
  }
}

int main(int argc, char **argv) {
  if (argc < 4 || (argc - 1) % 3 != 0) {
    fprintf(stderr, "usage: arena-forward HOST PORT SOCKET [HOST PORT SOCKET]...\n");
    return 125;
  }
  listener_count = (size_t)(argc - 1) / 3;
  listeners = calloc(listener_count, sizeof *listeners);
  if (!listeners) return 125;
  for (size_t i = 0; i < listener_count; i++) {
    listeners[i].fd = listen_on(argv[1 + 3 * i], argv[2 + 3 * i]);
    listeners[i].socket_path = argv[3 + 3 * i];
  }
  pid_t child = fork();
  if (child < 0) {
    perror("arena sandbox: the arena forwarder could not start");
    return 125;
  }
  if (child > 0) return 0;
  /* The server keeps no stream of the agent's open: its output is the agent's own, and its stdin is not ours to read. */
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd >= 0) {
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
  }
  signal(SIGPIPE, SIG_IGN);
  serve();
  return 0;
}
