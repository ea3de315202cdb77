# bench:push's websocket clients, as push-clients.ts's process does them (the same messages on the
# same IPC channel, the same report), with one difference: each notification is timed by when the
# kernel delivered it into the subscriber's socket, not by when this process got round to reading
# it. The clients stand in for wallets on other machines, yet here they share the gateway's cores:
# 10,000 reads a block cost a client process tens of milliseconds of its own, and a delay taken at
# the read would count the clients' turn on the cores as the gateway's. Linux stamps every packet
# it receives when a socket asks for it (SO_TIMESTAMPNS), and recvmsg hands the stamp over as a
# control message; on loopback TCP that stamp is the moment the gateway's write put the bytes in
# the socket. Node cannot read control messages, Python's standard library can. The reading time
# is kept too (readDelays) so the bench can print both.
#
# Otherwise it does what an honest client does, as little as it can: a non-blocking TCP socket per
# connection in one epoll (with the IPC channel), a real websocket handshake (RFC 6455 §4: the
# upgrade request with the project key, the 101 answer and its Sec-WebSocket-Accept checked),
# commands sent as masked text frames, every read into one reusable buffer. Every frame's header is
# parsed (final bit, opcode, reserved bits, length), pings are answered, fragments joined, and every
# text message checked: a block notification is parsed as JSON, or, being byte for byte the same as
# one parsed already (the gateway sends one frame to every subscriber), counted as that one. The
# frames of one read share its timestamp; for TCP the kernel reports the stamp of the last segment
# the read took, so a notification read together with a later one is timed by the later one.
#
# Spawned by Node with an IPC channel (NODE_CHANNEL_FD, one JSON object a line each way). Told
# {type: 'open'}: opens its connections, a few dozen handshakes at a time, subscribes every one to
# blocks and those given addresses to them, and answers {type: 'opened'}. Told {type: 'report',
# from, to}: answers ClientReport (push-clients.ts) for the blocks `from`..`to`. Told {type: 'cpu'}:
# answers its processor time so far (ms). Told {type: 'close'}, or the channel closed: exits.
import base64
import errno
import hashlib
import json
import os
import re
import resource
import select
import socket
import struct
import sys
import time
from urllib.parse import urlsplit

GUID = b'258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
SO_TIMESTAMPNS = getattr(socket, 'SO_TIMESTAMPNS', 35)
SCM_TIMESTAMPNS = SO_TIMESTAMPNS
ANCILLARY_SIZE = socket.CMSG_SPACE(16)
HASH = re.compile(r'[0-9a-f]{64}')
HANDSHAKES_AT_ONCE = 50
TIMESPEC = struct.Struct('qq')
U16 = struct.Struct('>H')
U64 = struct.Struct('>Q')

genesis_time = 0.0
block_interval_ms = 1000.0
closed = 0
unexpected = []


def problem(text):
    if len(unexpected) < 20:
        unexpected.append(text[:300])


# Every block notification payload verified once: its bytes, height and hash (one index into all three).
block_bytes = []
block_height = []
block_hash = []
# The latest payloads verified, newest first: a notification equal to one of them is that block.
recent_blocks = []

# Every block notification received: connection, block (index into `block_bytes`), the kernel's delivery
# time and this process's reading time (ms since the epoch).
note_conn = []
note_block = []
note_at = []
note_read_at = []
address_notes = []  # (txHash, address, height, at)


def json_of(payload):
    try:
        return json.loads(bytes(payload))
    except ValueError:
        return None


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def block_of(payload):
    """The block a block notification's payload announces (an index into `blocks`), or -1 if it is not one."""
    payload = bytes(payload)
    for i in recent_blocks:
        if block_bytes[i] == payload:
            return i
    m = json_of(payload)
    if not isinstance(m, dict) or m.get('id') != 'blk' or m.get('type') != 'message':
        return -1
    d = m.get('data')
    if not isinstance(d, dict) or not is_number(d.get('height')) or not isinstance(d.get('hash'), str) or not HASH.fullmatch(d['hash']):
        return -1
    block_bytes.append(payload)
    block_height.append(d['height'])
    block_hash.append(d['hash'])
    recent_blocks.insert(0, len(block_bytes) - 1)
    if len(recent_blocks) > 4:
        recent_blocks.pop()
    return len(block_bytes) - 1


def client_frame(opcode, payload):
    """A masked client frame (RFC 6455 §5.3)."""
    n = len(payload)
    if n < 126:
        header = bytes((0x80 | opcode, 0x80 | n))
    elif n < 65536:
        header = bytes((0x80 | opcode, 0x80 | 126)) + U16.pack(n)
    else:
        header = bytes((0x80 | opcode, 0x80 | 127)) + U64.pack(n)
    mask = os.urandom(4)
    # The payload XORed with the mask repeated, as one big integer rather than byte by byte.
    masked = (int.from_bytes(payload, 'big') ^ int.from_bytes((mask * (n // 4 + 1))[:n], 'big')).to_bytes(n, 'big') if n else b''
    return header + mask + masked


poller = select.epoll()
connections = {}  # fd → Connection
sockets_opened = []


class OpenFailed(Exception):
    pass


class Connection:
    """One connection: its handshake, then its frames as they arrive (possibly split across reads)."""

    __slots__ = ('index', 'addresses', 'sock', 'fd', 'upgraded', 'pending', 'fragments', 'setup_answers', 'key', 'accept_key', 'ready', 'connected', 'out', 'is_closed', 'project_key')

    def __init__(self, index, c):
        self.index = index
        self.addresses = c.get('addresses')
        self.project_key = c['key']
        self.upgraded = False
        # Bytes of an unfinished handshake answer or frame, kept until the rest arrives.
        self.pending = None
        # The pieces of a fragmented message so far.
        self.fragments = None
        self.setup_answers = 2 if self.addresses else 1
        self.key = base64.b64encode(os.urandom(16))
        self.accept_key = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).decode()
        self.ready = False
        self.connected = False
        self.out = b''
        self.is_closed = False
        self.sock = socket.socket(target_family, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.fd = self.sock.fileno()
        connections[self.fd] = self
        err = self.sock.connect_ex(target)
        if err not in (0, errno.EINPROGRESS):
            raise OpenFailed(f'connection {index}: {os.strerror(err)}')
        poller.register(self.fd, select.EPOLLOUT)

    def on_writable(self):
        if not self.connected:
            err = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                return self.on_error(os.strerror(err))
            self.connected = True
            self.send_raw(
                f'GET /ws HTTP/1.1\r\nHost: {host_header}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {self.key.decode()}\r\nSec-WebSocket-Version: 13\r\nproject_id: {self.project_key}\r\n\r\n'.encode()
            )
            if not self.out:
                poller.modify(self.fd, select.EPOLLIN)
            return
        try:
            sent = self.sock.send(self.out)
        except BlockingIOError:
            return
        except OSError as e:
            return self.on_error(e.strerror or str(e))
        self.out = self.out[sent:]
        if not self.out:
            poller.modify(self.fd, select.EPOLLIN)

    def send_raw(self, data):
        if self.is_closed:
            return
        if self.out:
            self.out += data
            return
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError as e:
            return self.on_error(e.strerror or str(e))
        if sent < len(data):
            self.out = data[sent:]
            poller.modify(self.fd, select.EPOLLIN | select.EPOLLOUT)

    def send(self, text):
        self.send_raw(client_frame(0x1, text.encode()))

    def on_data(self, data, at, read_at):
        """Bytes read (a view of the shared buffer): parsed before the next read reuses it."""
        if self.pending is not None:
            data = self.pending + bytes(data)
            self.pending = None
        off = 0
        size = len(data)
        if not self.upgraded:
            raw = bytes(data)
            end = raw.find(b'\r\n\r\n')
            if end < 0:
                self.pending = raw
                return
            head = raw[:end].decode('latin1')
            accept = re.search(r'\r\nsec-websocket-accept:\s*(\S+)', head, re.I)
            if not head.startswith('HTTP/1.1 101') or accept is None or accept.group(1) != self.accept_key:
                return self.on_fail(f'the upgrade was refused: {raw[:400].decode("utf8", "replace")}')
            self.upgraded = True
            off = end + 4
            self.send('{"id":"blk","command":"SUBSCRIBE_BLOCK","params":{}}')
            if self.addresses:
                self.send(json.dumps({'id': 'adr', 'command': 'SUBSCRIBE_ADDRESS', 'params': {'addresses': self.addresses}}, separators=(',', ':')))
        while size - off >= 2:
            b0 = data[off]
            b1 = data[off + 1]
            n = b1 & 0x7F
            header = 2
            if n == 126:
                if size - off < 4:
                    break
                n = (data[off + 2] << 8) | data[off + 3]
                header = 4
            elif n == 127:
                if size - off < 10:
                    break
                n = U64.unpack_from(data, off + 2)[0]
                header = 10
            if b1 & 0x80:
                return self.fail('a server frame was masked')
            if size - off < header + n:
                break
            self.on_frame(b0, data[off + header : off + header + n], at, read_at)
            if self.is_closed:
                return
            off += header + n
        if off < size:
            self.pending = bytes(data[off:])

    def on_frame(self, b0, payload, at, read_at):
        fin = b0 & 0x80
        opcode = b0 & 0x0F
        if b0 & 0x70:
            return self.fail('a frame had reserved bits set (no extension was agreed)')
        if opcode == 0x9:
            return self.send_raw(client_frame(0xA, bytes(payload)))
        if opcode == 0xA:
            return
        if opcode == 0x8:
            code = U16.unpack_from(payload, 0)[0] if len(payload) >= 2 else ''
            problem(f'connection {self.index} closed by the server: {code} {bytes(payload[2:]).decode("utf8", "replace")}')
            # As socket.end(): no more writes; the server closes its side and the read of 0 bytes closes this one.
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            return
        if opcode == 0x1 and fin and self.fragments is None:
            return self.on_message(payload, at, read_at)
        if opcode == 0x1 and self.fragments is None:
            self.fragments = [bytes(payload)]
        elif opcode == 0x0 and self.fragments is not None:
            self.fragments.append(bytes(payload))
        else:
            return self.fail(f'an unexpected frame (opcode {opcode})')
        if fin:
            whole = b''.join(self.fragments)
            self.fragments = None
            self.on_message(whole, at, read_at)

    def on_message(self, payload, at, read_at):
        if self.setup_answers > 0:
            # The subscriptions' answers ({"id", "type":"message", "data":{"subscribed":true}}); a block
            # announced between the two is a notification like any other.
            answer = json_of(payload)
            data = answer.get('data') if isinstance(answer, dict) else None
            if not isinstance(answer, dict) or answer.get('type') != 'message' or not isinstance(data, dict) or 'subscribed' not in data:
                if block_of(payload) < 0:
                    return self.on_fail(f'a subscription was refused: {bytes(payload).decode("utf8", "replace")[:300]}')
            else:
                if data['subscribed'] is not True:
                    return self.on_fail(f'a subscription was refused: {bytes(payload).decode("utf8", "replace")[:300]}')
                self.setup_answers -= 1
                if self.setup_answers == 0:
                    self.ready = True
                    on_ready(self)
                return
        block = block_of(payload)
        if block >= 0:
            note_conn.append(self.index)
            note_block.append(block)
            note_at.append(at)
            note_read_at.append(read_at)
            return
        text = bytes(payload).decode('utf8', 'replace')
        m = json_of(payload)
        if m is None:
            return problem(f'connection {self.index}: not JSON: {text}')
        d = m.get('data') if isinstance(m, dict) else None
        if (
            not isinstance(m, dict)
            or m.get('id') != 'adr'
            or m.get('type') != 'message'
            or not isinstance(d, dict)
            or not isinstance(d.get('address'), str)
            or not isinstance(d.get('txHash'), str)
            or not isinstance(d.get('blockInfo'), dict)
            or not is_number(d['blockInfo'].get('height'))
        ):
            return problem(f'connection {self.index}: not a notification: {text}')
        address_notes.append((d['txHash'], d['address'], d['blockInfo']['height'], at))

    def fail(self, why):
        problem(f'connection {self.index}: {why}')
        self.close()

    def on_fail(self, why):
        open_failed(why)
        self.close()

    def on_error(self, why):
        if not self.ready:
            open_failed(f'connection {self.index}: {why}')
            self.close()
        else:
            problem(f'connection {self.index}: {why}')
            self.close()

    def close(self):
        global closed
        if self.is_closed:
            return
        self.is_closed = True
        closed += 1
        try:
            poller.unregister(self.fd)
        except OSError:
            pass
        connections.pop(self.fd, None)
        self.sock.close()
        if not self.ready:
            open_failed(f'connection {self.index} closed before it was subscribed')


# What every socket reads into (each read is parsed before the next one).
read_buffer = bytearray(256 * 1024)
read_view = memoryview(read_buffer)


def on_readable(conn):
    try:
        n, ancillary, _flags, _addr = conn.sock.recvmsg_into((read_view,), ANCILLARY_SIZE)
    except BlockingIOError:
        return
    except OSError as e:
        return conn.on_error(e.strerror or str(e))
    read_at = time.time_ns() / 1e6
    if n == 0:
        return conn.close()
    at = read_at
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS and len(data) >= 16:
            seconds, nanoseconds = TIMESPEC.unpack_from(data)
            at = seconds * 1e3 + nanoseconds / 1e6
            break
    else:
        # The kernel starts stamping a moment after the first socket asks (it turns the stamping on
        # from a work queue), so the first handshakes may go unstamped; a notification may not.
        if conn.ready:
            problem(f'connection {conn.index}: a read without the kernel\'s timestamp')
    # Most reads are one whole block notification that repeats one already parsed: that is checked
    # here, byte for byte, without the general parser's calls (the clients' processor time is the
    # machine's, shared with the gateway).
    if conn.ready and conn.pending is None and conn.fragments is None and read_buffer[0] == 0x81:
        length = read_buffer[1]  # unmasked, 7-bit or 16-bit length: 127 and above go the general way
        header = 2
        if length == 126:
            length = (read_buffer[2] << 8) | read_buffer[3]
            header = 4
        if read_buffer[1] < 127 and header + length == n:
            payload = read_buffer[header:n]
            for i in recent_blocks:
                if block_bytes[i] == payload:
                    note_conn.append(conn.index)
                    note_block.append(i)
                    note_at.append(at)
                    note_read_at.append(read_at)
                    return
    conn.on_data(read_view[:n], at, read_at)


# The opening in progress: connections still to open, how many are in flight, whether it failed.
opening = None


class Opening:
    def __init__(self, list_):
        self.list = list_
        self.next = 0
        self.in_flight = 0
        self.done = 0
        self.failed = False


target = None
target_family = socket.AF_INET
host_header = ''


def start_open(cmd):
    global genesis_time, block_interval_ms, opening, target, target_family, host_header
    genesis_time = cmd['genesisTime']
    block_interval_ms = cmd['blockIntervalMs']
    url = urlsplit(cmd['url'])
    host_header = url.netloc
    info = socket.getaddrinfo(url.hostname, url.port or 80, type=socket.SOCK_STREAM)[0]
    target_family = info[0]
    target = info[4]
    opening = Opening(cmd['connections'])
    if not opening.list:
        return ipc_send({'type': 'opened'})
    # A few dozen handshakes at a time, as clients arriving.
    for _ in range(min(HANDSHAKES_AT_ONCE, len(opening.list))):
        open_next()


def open_next():
    o = opening
    if o.failed or o.next >= len(o.list):
        return
    i = o.next
    o.next += 1
    o.in_flight += 1
    c = o.list[i]
    try:
        Connection(i, c)
    except OSError as e:
        open_failed(f'connection {i}: {e.strerror or e}')
    except OpenFailed as e:
        open_failed(str(e))


def on_ready(conn):
    o = opening
    sockets_opened.append(conn)
    o.in_flight -= 1
    o.done += 1
    if o.done == len(o.list):
        return ipc_send({'type': 'opened'})
    open_next()


def open_failed(why):
    o = opening
    if o is None or o.failed:
        return
    o.failed = True
    ipc_send({'type': 'error', 'message': why})


def report(from_, to):
    block_delays = []
    height_delays = {}
    read_delays = []
    seen = {}
    hashes = {}
    for i in range(len(note_conn)):
        b = note_block[i]
        h = block_height[b]
        if h < from_ or h > to:
            continue
        due = genesis_time + h * block_interval_ms
        delay = note_at[i] - due
        block_delays.append(delay)
        read_delays.append(note_read_at[i] - due)
        height_delays.setdefault(h, []).append(delay)
        per = seen.setdefault(h, {})
        per[note_conn[i]] = per.get(note_conn[i], 0) + 1
        hs = hashes.setdefault(h, [])
        if block_hash[b] not in hs:
            hs.append(block_hash[b])
    heights = {}
    for h in range(from_, to + 1):
        counts = seen.get(h, {}).values()
        once = sum(1 for n in counts if n == 1)
        heights[h] = {'hashes': hashes.get(h, []), 'once': once, 'more': len(counts) - once}
    return {
        'type': 'report',
        'blockDelays': block_delays,
        'heightDelays': height_delays,
        'heights': heights,
        'addressNotes': [
            {'txHash': tx, 'address': a, 'height': h, 'delay': at - (genesis_time + h * block_interval_ms)} for tx, a, h, at in address_notes if from_ <= h <= to
        ],
        'unexpected': unexpected,
        'connections': len(sockets_opened),
        'closed': closed,
        'readDelays': read_delays,
    }


channel = socket.socket(fileno=int(os.environ['NODE_CHANNEL_FD']))
# Blocking: the channel is read only when epoll says it holds bytes, and a report is written whole.
channel.setblocking(True)
channel_fd = channel.fileno()
channel_pending = b''


def ipc_send(message):
    channel.sendall(json.dumps(message, separators=(',', ':')).encode() + b'\n')


def exit_now():
    for conn in list(connections.values()):
        conn.sock.close()
    sys.stdout.flush()
    os._exit(0)


def on_channel():
    global channel_pending
    try:
        data = channel.recv(1 << 16)
    except OSError:
        data = b''
    if not data:
        exit_now()
    channel_pending += data
    while True:
        end = channel_pending.find(b'\n')
        if end < 0:
            return
        line = channel_pending[:end]
        channel_pending = channel_pending[end + 1 :]
        if not line.strip():
            continue
        m = json.loads(line)
        kind = m.get('type')
        if kind == 'cpu':
            t = os.times()
            ipc_send({'type': 'cpu', 'ms': (t.user + t.system) * 1000})
        elif kind == 'open':
            start_open(m)
        elif kind == 'report':
            ipc_send(report(m['from'], m['to']))
        elif kind == 'close':
            exit_now()


def main():
    # As Node does at start-up: a process holding thousands of sockets needs the hard limit of descriptors.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    poller.register(channel_fd, select.EPOLLIN)
    ipc_send({'type': 'ready'})
    EPOLLIN = select.EPOLLIN
    EPOLLOUT = select.EPOLLOUT
    while True:
        try:
            events = poller.poll()
        except InterruptedError:
            continue
        for fd, ev in events:
            if fd == channel_fd:
                on_channel()
                continue
            conn = connections.get(fd)
            if conn is None:
                continue
            if ev & EPOLLOUT:
                conn.on_writable()
                if conn.is_closed:
                    continue
            if ev & ~EPOLLOUT:
                on_readable(conn)


main()
