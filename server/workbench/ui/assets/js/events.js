// The live events of /api/ui/events. One EventSource for the app; pages subscribe by type. The
// browser resends Last-Event-ID on reconnect, so the server replays what was missed; `reset`
// means the journal no longer reaches back that far and every page reloads its state.

const TYPES = ['entry', 'session', 'interaction', 'decision', 'board', 'turn', 'reset'];
const handlers = new Map(TYPES.map((type) => [type, new Set()]));
const statusHandlers = new Set();
let source = null;

export function connect() {
  if (source) return;
  source = new EventSource('/api/ui/events');
  for (const type of TYPES) {
    source.addEventListener(type, (event) => {
      let data = {};
      try {
        data = JSON.parse(event.data || '{}');
      } catch (e) {
        return;
      }
      handlers.get(type).forEach((fn) => fn(data, event));
    });
  }
  source.addEventListener('open', () => statusHandlers.forEach((fn) => fn('live')));
  source.addEventListener('error', () => {
    statusHandlers.forEach((fn) => fn(source.readyState === EventSource.CLOSED ? 'offline' : 'reconnecting'));
  });
}

// A page left for another closes its stream at once: a stream kept open by a page in the
// back/forward cache would hold one of the few connections a browser opens to this origin. A page
// restored from that cache reloads, since it missed what happened meanwhile.
window.addEventListener('pagehide', () => disconnect());
window.addEventListener('pageshow', (event) => {
  if (event.persisted) window.location.reload();
});

export function disconnect() {
  if (source) source.close();
  source = null;
}

/** Subscribes `fn` to events of `type`; returns the function that unsubscribes. */
export function on(type, fn) {
  handlers.get(type).add(fn);
  return () => handlers.get(type).delete(fn);
}

export function onStatus(fn) {
  statusHandlers.add(fn);
}
