import { useEffect, useState } from 'react';
import { Burger, Button } from '@mantine/core';
import { IconArrowUpRight } from '@tabler/icons-react';
import { AppLink as Link, useNav } from '../../lib/nav';
import { landingAnchors, type SiteInfo } from '../../../../../shared/site';
import { isAppRoute } from '../../../../../shared/routes';
import { CairnLogo } from '../../components/cairn-logo';
import classes from './landing.module.css';

interface NavItem {
  label: string;
  href: string;
  /** 'route': a page of this app; 'page': a page of this server outside the app (/docs); 'external': another site. */
  kind: 'route' | 'page' | 'external';
}

const kindOf = (href: string): NavItem['kind'] => (/^https?:\/\//i.test(href) ? 'external' : isAppRoute(href.split(/[?#]/)[0] ?? href) ? 'route' : 'page');

/**
 * Home and Pricing are anchors of this page; Status and Documentation are the built-in pages unless
 * configured elsewhere; Blog appears only when configured.
 */
export function navItems(site: SiteInfo | undefined): NavItem[] {
  const items: NavItem[] = [
    { label: 'Home', href: `/#${landingAnchors.introduction}`, kind: 'route' },
    { label: 'Pricing', href: `/#${landingAnchors.pricing}`, kind: 'route' },
  ];
  const external: Array<[string, string | null | undefined]> = [
    ['Status', site?.links.status],
    ['Blog', site?.links.blog],
    ['Documentation', site?.links.docs],
  ];
  for (const [label, href] of external) if (href) items.push({ label, href, kind: kindOf(href) });
  return items;
}

function NavLinks({ items, className, onNavigate }: { items: NavItem[]; className: string | undefined; onNavigate?: () => void }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.label}>
          {item.kind === 'external' ? (
            <a href={item.href} target="_blank" rel="noopener noreferrer" className={classes.navLink} onClick={onNavigate}>
              {item.label}
              <IconArrowUpRight size={14} aria-hidden className={classes.navExternal} />
            </a>
          ) : item.kind === 'page' ? (
            <a href={item.href} className={classes.navLink} onClick={onNavigate}>
              {item.label}
            </a>
          ) : (
            <Link to={item.href} className={classes.navLink} onClick={onNavigate}>
              {item.label}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

interface SiteHeaderProps {
  site: SiteInfo | undefined;
  dashboardTarget: string;
}

/** The public top bar. From 998 px the links sit inline; below, a toggle button opens them as a menu. */
export function SiteHeader({ site, dashboardTarget }: SiteHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { location } = useNav();
  const items = navItems(site);

  // Any navigation (a menu link, the back button) closes the menu.
  useEffect(() => setMenuOpen(false), [location.key]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className={classes.header}>
      <div className={classes.headerInner}>
        <Link to="/" className={classes.brand} aria-label="Cairn home">
          <CairnLogo />
          <span className={classes.brandName}>Cairn</span>
        </Link>
        <nav aria-label="Main" className={classes.desktopNav}>
          <NavLinks items={items} className={classes.navList} />
        </nav>
        <div className={classes.headerActions}>
          <Button component={Link} to={dashboardTarget} data-testid="dashboard-button">
            Dashboard
          </Button>
          <Burger
            className={classes.burger}
            opened={menuOpen}
            onClick={() => setMenuOpen((open) => !open)}
            aria-label="Toggle navigation"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            size="sm"
          />
        </div>
      </div>
      {menuOpen && (
        <nav id="site-menu" aria-label="Main menu" className={classes.mobileNav}>
          <NavLinks items={items} className={classes.mobileNavList} onNavigate={() => setMenuOpen(false)} />
        </nav>
      )}
    </header>
  );
}
