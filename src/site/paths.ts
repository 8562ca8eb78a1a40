// The public site's pages live in contract/ (the server lists them in sitemap.xml).
export { POLICY_TYPES, SITE_PATHS } from '../../contract/site-paths';
