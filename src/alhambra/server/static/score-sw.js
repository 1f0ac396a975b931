// Keeps "Score a real game" working offline once loaded: the page, its scripts, the catalogue
// and every module's companion.js come from the network when it answers, else from this cache.
const CACHE = "alhambra-score-v1";
const SHELL = ["/score", "/static/score.js", "/static/score-core.js", "/static/score.css", "/static/style.css", "/static/icon.svg", "/api/companion"];

function kept(path) {
  return SHELL.includes(path) || /^\/modules\/[a-z0-9_]+\/ui\/companion\.js$/.test(path);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL);
    const cat = await (await cache.match("/api/companion")).json();
    await cache.addAll(cat.modules.filter((m) => m.script).map((m) => `/modules/${m.id}/ui/companion.js`));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !kept(url.pathname)) return;
  event.respondWith((async () => {
    try {
      const answer = await fetch(event.request);
      if (answer.ok) {
        const cache = await caches.open(CACHE);
        await cache.put(url.pathname, answer.clone());
      }
      return answer;
    } catch (e) {
      const hit = await caches.match(url.pathname);
      return hit || Response.error();
    }
  })());
});
