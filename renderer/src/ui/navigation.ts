// Hash navigation helpers: the route lives in location.hash, so links are plain <a href="#/…">.
import { useEffect, useState } from 'react';
import { parseRoute, type Route } from '../routes.js';

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** Filter changes replace the history entry, so Back leaves the page instead of undoing each click. */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.location.replace(href);
  else window.location.hash = href.startsWith('#') ? href.slice(1) : href;
}
