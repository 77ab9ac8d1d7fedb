/**
 * What an entityID says about its institution: the host of a URL entityID
 * (`https://signon.rug.nl/nidp/saml2/metadata` → `signon.rug.nl`), or the last dotted part of a URN
 * (`urn:mace:incommon:uiuc.edu` → `uiuc.edu`), lower case. Its labels are search keys ("rug"), its
 * domains are what the institution's e-mail addresses end with (`jan@student.rug.nl`).
 */

/** Labels that name a service, not an institution: "sso" or "login" finds nobody in particular. */
const GENERIC = new Set(
  'idp idp1 idp2 idp3 login sso signon shibboleth shib www auth aai saml saml2 adfs sts fs wayf ds id accounts account secure portal cas simplesaml simplesamlphp federation fed openid oidc weblogin websso iam identity'.split(
    ' ',
  ),
);

/**
 * Second-level labels under which many institutions register (`ac.uk`, `edu.au`, `co.za`): such a
 * label and a top-level domain identify no institution.
 */
const SHARED_SLD = new Set('ac edu co com org net gov gob gv or ne go sch govt mil nic res'.split(' '));

const DOTTED = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/** The entityID's host name, lower case, or undefined when it has none. */
export function entityHost(entityId: string): string | undefined {
  const url = /^[a-z][a-z0-9+.-]{0,10}:\/\/(?:[^/?#@]*@)?([^/?#:]*)/i.exec(entityId);
  if (url !== null) {
    const host = url[1]!.toLowerCase().replace(/\.$/, '');
    return DOTTED.test(host) ? host : undefined;
  }
  // A URN: its last dotted part.
  const parts = entityId.toLowerCase().split(':');
  for (let i = parts.length - 1; i >= 0; i--) if (DOTTED.test(parts[i]!)) return parts[i];
  return undefined;
}

/** Labels of `host` worth a search: not the top-level domain, not a service label, two characters or more. */
export function hostLabels(host: string): string[] {
  const labels = host.split('.');
  labels.pop();
  return labels.filter((l) => l.length >= 2 && !GENERIC.has(l) && !SHARED_SLD.has(l) && !/^\d+$/.test(l));
}

/**
 * `signon.rug.nl` → `['signon.rug.nl', 'rug.nl']`: the domains an e-mail address of the institution
 * may use, down to its registered domain (`rug.nl`, `ox.ac.uk`), whatever its label means (`auth.gr`
 * is the Aristotle University of Thessaloniki, `uni.lu` the University of Luxembourg).
 */
export function domainKeys(host: string): string[] {
  const labels = host.split('.');
  const registered =
    labels.length >= 3 && SHARED_SLD.has(labels.at(-2)!) ? labels.length - 3 : labels.length - 2;
  const out: string[] = [];
  for (let i = 0, at = 0; i <= registered; i++, at = host.indexOf('.', at) + 1) out.push(host.slice(at));
  return out;
}

/**
 * The domain a query names: the part after `@` of an e-mail address (`jan@student.rug.nl`), or a
 * bare domain (`rug.nl`), lower case; undefined for anything else.
 */
export function queryDomain(query: string): string | undefined {
  const q = query.trim().toLowerCase();
  if (/\s/.test(q)) return undefined;
  const domain = q.slice(q.lastIndexOf('@') + 1);
  return DOTTED.test(domain) ? domain : undefined;
}
