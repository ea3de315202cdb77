import { AppLink as Link } from '../../lib/nav';
import type { SiteInfo } from '../../../../../shared/site';
import { CairnLogo } from '../../components/cairn-logo';
import { navItems } from './site-header';
import classes from './landing.module.css';

/** Links again, the social links and the company address from configuration. */
export function SiteFooter({ site, dashboardTarget }: { site: SiteInfo | undefined; dashboardTarget: string }) {
  const items = navItems(site);
  const social = site?.socialLinks ?? [];
  return (
    <footer className={classes.footer}>
      <div className={classes.footerGrid}>
        <div className={classes.footerBrand}>
          <Link to="/" className={classes.footerLogo} aria-label="Cairn home">
            <CairnLogo />
            <span>Cairn</span>
          </Link>
          <p>Instant API access to the Cardano blockchain and IPFS.</p>
          {site?.companyAddress && (
            <address className={classes.address} data-testid="company-address">
              {site.companyAddress}
            </address>
          )}
        </div>
        <nav aria-label="Footer" className={classes.footerColumn}>
          <h2 className={classes.footerHeading}>Product</h2>
          <ul>
            {items.map((item) =>
              item.kind === 'external' ? (
                <li key={item.label}>
                  <a href={item.href} target="_blank" rel="noopener noreferrer">
                    {item.label}
                  </a>
                </li>
              ) : item.kind === 'page' ? (
                <li key={item.label}>
                  <a href={item.href}>{item.label}</a>
                </li>
              ) : (
                <li key={item.label}>
                  <Link to={item.href}>{item.label}</Link>
                </li>
              ),
            )}
            <li>
              <Link to={dashboardTarget}>Dashboard</Link>
            </li>
          </ul>
        </nav>
        {social.length > 0 && (
          <nav aria-label="Social" className={classes.footerColumn}>
            <h2 className={classes.footerHeading}>Follow us</h2>
            <ul data-testid="social-links">
              {social.map((link) => (
                <li key={link.url}>
                  <a href={link.url} target="_blank" rel="noopener noreferrer">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {site && (
          <div className={classes.footerColumn}>
            <h2 className={classes.footerHeading}>Support</h2>
            <ul>
              <li>
                <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
              </li>
            </ul>
          </div>
        )}
      </div>
      <div className={classes.footerBottom}>© {new Date().getFullYear()} Cairn. Self-hostable developer platform for Cardano and IPFS.</div>
    </footer>
  );
}
