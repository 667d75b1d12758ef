import { Suspense } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { api } from './api/endpoints';
import { setCsrfToken } from './api/client';
import { ApiDownBanner } from './components/api-down-banner';
import { SESSION_KEY, useSession } from './session';

/** The pages a website without the platform module has (the others read the Data Explorer's store). */
const WITHOUT_PLATFORM_MODULE = ['cache', 'alerts'];

/** Header (website switcher, pages, sign-out), the API-down banner, and the page. */
export function Layout() {
  const session = useSession();
  const { website } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const current = session.websites.find((w) => w.id === website);
  const signOut = useMutation({
    mutationFn: () => api.session.end(),
    onSettled: () => {
      setCsrfToken(undefined);
      client.clear();
      client.setQueryData(SESSION_KEY, null);
      navigate('/sign-in', { replace: true });
    },
  });

  const switchTo = (id: string) => {
    // Same page on the other website; the explorer's query may not fit it, so its state is dropped.
    const rest = website ? location.pathname.split('/').slice(3).join('/') : '';
    navigate(`/w/${encodeURIComponent(id)}${rest ? `/${rest}` : ''}`);
  };

  const base = current ? `/w/${encodeURIComponent(current.id)}` : undefined;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="brand">Bot cache</div>
        {session.websites.length > 1 ? (
          <label className="switcher">
            <span className="visually-hidden">Website</span>
            <select value={website ?? ''} onChange={(e) => switchTo(e.target.value)}>
              {website && !current ? <option value={website}>{website}</option> : null}
              {session.websites.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.id}
                </option>
              ))}
            </select>
          </label>
        ) : current ? (
          <span className="switcher">{current.id}</span>
        ) : null}
        {base ? (
          <nav aria-label="Pages">
            {current?.platformModule ? (
              <>
                <NavLink to={base} end>
                  Overview
                </NavLink>
                <NavLink to={`${base}/explorer`}>Explorer</NavLink>
                <NavLink to={`${base}/exports`}>Exports</NavLink>
                <NavLink to={`${base}/search`}>Search</NavLink>
                <NavLink to={`${base}/renders`}>Renders</NavLink>
                <NavLink to={`${base}/ai-agents`}>AI agents</NavLink>
                <NavLink to={`${base}/seo`}>SEO health</NavLink>
              </>
            ) : null}
            {/* Every role: the queue, entry search and lookup read for anyone; the page hides what needs a manager. */}
            <NavLink to={`${base}/cache`}>Cache</NavLink>
            <NavLink to={`${base}/alerts`}>Alerts</NavLink>
          </nav>
        ) : null}
        <div className="account">
          <span className="muted small" title={`role: ${current?.role ?? '-'}`}>
            {session.userId}
            {current ? ` · ${current.role}` : ''}
          </span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <ApiDownBanner />
      <main id="main" className="page">
        {website && !current ? (
          <p className="form-error" role="alert">
            You have no role on website “{website}”. Choose one of your websites above.
          </p>
        ) : current && !current.platformModule && !WITHOUT_PLATFORM_MODULE.some((page) => location.pathname.endsWith(`/${page}`)) ? (
          <section className="card">
            <h1 className="flush">{current.id}</h1>
            <p>
              The Data Explorer, the overview and search performance are part of the platform module, which is not enabled for this website.
              {' '}
              Its cache and alerts are here: <NavLink to={`${base}/cache`}>Cache</NavLink>, <NavLink to={`${base}/alerts`}>Alerts</NavLink>.
            </p>
          </section>
        ) : (
          <Suspense fallback={<p className="page-status" role="status">Loading…</p>}>
            <Outlet />
          </Suspense>
        )}
      </main>
    </>
  );
}
