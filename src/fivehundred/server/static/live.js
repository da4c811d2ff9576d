// The page's connection to its table: a WebSocket (GET /tables/{id}/live) that the
// server pushes every change on, reconnected with backoff; HTTP polling only while the
// socket is down. Every action is sent, or refused on screen: none is dropped.

const BACKOFF = [500, 1000, 2000, 4000, 8000, 15000];  // ms before each reconnect
const POLL = 2000;  // ms between polls while the socket is down
const ACK_WAIT = 8000;  // ms an action waits for its answer before it is sent again

export class Connection {
  // onView(answer) gets every view; onState(state, detail) the connection's state:
  // "connecting", "live", "polling", "offline"; onRefused(error, message) a refusal;
  // onReview(message) a hand's review; onChat(message) a message of the table chat.
  constructor(table, token, { onView, onState, onRefused, onReview, onChat }) {
    Object.assign(this, { table, token, onView, onState, onRefused, onReview, onChat });
    this.socket = null;
    this.failures = 0;
    this.ref = 0;
    this.waiting = new Map();  // ref -> {message, timer}
    this.pollTimer = null;
    this.retryTimer = null;
    this.closed = false;
    this.state = "connecting";
    this.version = -1;
  }

  start() { this.open(); this.poll(); }

  stop() {
    this.closed = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
  }

  setState(state, detail = "") {
    this.state = state;
    this.onState(state, detail);
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${location.host}/tables/${encodeURIComponent(this.table)}/live`);
    } catch (err) {
      this.retry();
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      socket.send(JSON.stringify({ type: "hello", token: this.token }));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (err) { return; }
      this.received(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket === socket) this.socket = null;
      if (opened && this.state === "live") this.failures = 0;
      this.retry();
    });
  }

  retry() {
    if (this.closed) return;
    const wait = BACKOFF[Math.min(this.failures, BACKOFF.length - 1)];
    this.failures += 1;
    this.setState(this.reachable ? "polling" : "offline", Math.round(wait / 1000));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), wait);
    this.schedulePoll(100);
  }

  received(message) {
    if (message.type === "view") {
      if (this.state !== "live") {
        this.failures = 0;
        this.setState("live");
        this.resend();
      }
      this.version = message.version;
      this.onView(message.view);
      this.flush();
    } else if (message.type === "ack" || message.type === "refused") {
      const sent = this.waiting.get(message.ref);
      if (!sent) return;
      clearTimeout(sent.timer);
      this.waiting.delete(message.ref);
      if (message.type === "refused") this.onRefused(message.error, message.message, sent);
    } else if (message.type === "review") {
      this.onReview(message);
    } else if (message.type === "chat" && this.onChat) {
      this.onChat(message);
    }
  }

  get live() { return this.socket && this.socket.readyState === WebSocket.OPEN && this.state === "live"; }

  // An action: over the socket when it is up, else over HTTP. Answers a promise of
  // true once the server has it (accepted or refused), false if it must wait.
  async send(kind, fields) {
    this.ref += 1;
    const message = { type: kind, ref: this.ref, ...fields };
    if (this.live) {
      this.push(message);
      return true;
    }
    return this.post(message);
  }

  push(message) {
    const timer = setTimeout(() => {  // no answer: the socket died; send it again by HTTP
      this.waiting.delete(message.ref);
      this.post(message);
    }, ACK_WAIT);
    this.waiting.set(message.ref, { message, timer });
    this.socket.send(JSON.stringify(message));
  }

  resend() {  // after a reconnect: actions the old socket never answered
    for (const [ref, sent] of [...this.waiting]) {
      clearTimeout(sent.timer);
      this.waiting.delete(ref);
      if (sent.message.version === this.version) this.push(sent.message);
      else this.onRefused("STALE_VERSION", "", sent);
    }
  }

  async post(message) {
    const path = message.type === "claim"
      ? `/tables/${this.table}/claim` : `/tables/${this.table}/actions`;
    const body = message.type === "claim" ? { version: message.version }
      : { action: message.action, version: message.version };
    let answer;
    try {
      answer = await this.http("POST", path, body);
    } catch (err) {  // the server is out of reach: keep it, send it when it is back
      this.pending = message;
      this.reachable = false;
      this.setState("offline", "");
      this.schedulePoll(500);
      return false;
    }
    if (!answer.ok) this.onRefused(answer.data.error, answer.data.message, { message });
    await this.fetchView();
    return true;
  }

  async http(method, path, body) {
    const headers = { "content-type": "application/json", authorization: `Bearer ${this.token}` };
    const response = await fetch(path, { method, headers, body: body && JSON.stringify(body),
      cache: "no-store" });
    const data = await response.json().catch(() => ({ error: "BAD_ANSWER", message: "" }));
    return { ok: response.ok, status: response.status, data };
  }

  async fetchView() {
    let answer;
    try {
      answer = await this.http("GET", `/tables/${this.table}`);
    } catch (err) {
      this.reachable = false;
      if (this.state !== "live") this.setState("offline", "");
      return false;
    }
    this.reachable = true;
    if (!answer.ok) { this.onRefused(answer.data.error, answer.data.message, null); return false; }
    if (this.state === "offline" || this.state === "connecting") this.setState("polling", "");
    this.version = answer.data.version;
    this.onView(answer.data);
    await this.flush();
    return true;
  }

  // A click made while the server was out of reach: sent by whichever way comes back
  // first, the socket or a poll; refused on screen if the table moved on meanwhile.
  async flush() {
    const message = this.pending;
    if (!message) return;
    this.pending = null;
    if (message.version !== this.version) this.onRefused("STALE_VERSION", "", { message });
    else if (this.live) this.push(message);
    else await this.post(message);
  }

  schedulePoll(wait) {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.poll(), wait);
  }

  async poll() {
    if (this.closed) return;
    if (!this.live) await this.fetchView();
    this.schedulePoll(this.live ? POLL * 5 : POLL);  // a slow check even when live
  }
}
