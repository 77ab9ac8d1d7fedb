import { describe, expect, it } from 'vitest';
import { fold, foldGerman, foldMapped } from '../../src/hints/search/fold.js';
import { typoOf } from '../../src/hints/search/highlight.js';
import { domainKeys, entityHost, hostLabels, queryDomain } from '../../src/hints/search/host.js';

describe('fold', () => {
  it('folds case, accents and special letters the same way on both sides', () => {
    expect(fold('Universität Zürich (UZH)')).toBe('universitat zurich uzh');
    expect(fold('Straße')).toBe('strasse');
    expect(fold('Ærø Æsir')).toBe('aero aesir');
    expect(fold('Øresund Łódź Đakovo ıspanya Œuvre Þingvellir')).toBe(
      'oresund lodz dakovo ispanya oeuvre thingvellir',
    );
    expect(fold('İstanbul')).toBe('istanbul');
    expect(fold('Πανεπιστήμιο Αθηνών')).toBe('πανεπιστημιο αθηνων');
    expect(fold('Київський')).toBe('киівськии');
    expect(fold('東京大学')).toBe('東京大学');
    // Decomposed input (NFD) and compatibility forms fold like composed text.
    expect(fold('Zu\u0308rich')).toBe(fold('Zürich'));
    expect(fold('ﬁnance')).toBe('finance');
  });

  it('maps folded positions back to the original', () => {
    const f = foldMapped('Universität Zürich');
    expect(f.text).toBe('universitat zurich');
    const at = f.text.indexOf('zur');
    expect([f.from[at], f.to[at + 2]]).toEqual([12, 15]);
    const ss = foldMapped('Straße');
    expect(ss.text).toBe('strasse');
    expect([ss.from[4], ss.to[5]]).toEqual([4, 5]);
  });

  it('maps ASCII and mixed names the way it folds them', () => {
    const names = [
      'KTH Royal Institute of Technology',
      '  Université Paris-Saclay (UPS) ',
      'Zu\u0308rich -- ETH',
      'Ærø/Łódź & Straße 2.0',
      'Πανεπιστήμιο Αθηνών, Athens',
      'A\u0301rvore.__.B',
      `x\ufdfa ${'\ufdfa'.repeat(40)} ﬃ`,
    ];
    for (const name of names) {
      const f = foldMapped(name);
      expect(f.text).toBe(fold(name));
      expect(f.from.length).toBe(f.text.length);
      // Every folded letter comes from a non-empty piece of the original that folds to hold it.
      for (let i = 0; i < f.text.length; i++) {
        if (f.text[i] === ' ') continue;
        expect(f.to[i]! > f.from[i]!).toBe(true);
        expect(fold(name.slice(f.from[i], f.to[i]))).toContain(f.text[i]);
      }
    }
    const paris = foldMapped('  Université Paris-Saclay (UPS) ');
    const at = paris.text.indexOf('saclay');
    expect([paris.from[at], paris.to[at + 5]]).toEqual([19, 25]);
    expect(paris.text.indexOf('ups')).toBe(paris.text.length - 3);
  });
});

describe('German spelling of umlauts', () => {
  it('writes ä, ö, ü as ae, oe, ue (composed or not), keeping where each letter came from', () => {
    expect(foldGerman('Ludwig-Maximilians-Universität München')).toBe(
      'ludwig maximilians universitaet muenchen',
    );
    expect(foldGerman('Zu\u0308rich Straße')).toBe('zuerich strasse');
    const m = foldMapped('Universität Zürich', true);
    expect(m.text).toBe('universitaet zuerich');
    // "zue" comes from "Zü": both e and u from the ü.
    const at = m.text.indexOf('zue');
    expect([m.from[at], m.to[at + 2]]).toEqual([12, 14]);
    const decomposed = foldMapped('Zu\u0308rich', true);
    expect(decomposed.text).toBe('zuerich');
    expect([decomposed.from[2], decomposed.to[2]]).toEqual([1, 3]);
  });
});

describe('one typo', () => {
  it('finds the prefix of a word one Damerau edit from the query word', () => {
    expect(typoOf('groningen', 'gronigen')).toBe(9);
    expect(typoOf('groningen', 'grnoingen')).toBe(9);
    expect(typoOf('groningen', 'groningex')).toBe(9);
    expect(typoOf('groningen', 'groningenn')).toBe(9);
    expect(typoOf('groningen', 'gornnigen')).toBe(0);
    // A word the query starts is a prefix match, not a typo.
    expect(typoOf('groningen', 'gron')).toBe(0);
  });
});

describe('entityID hosts', () => {
  it('reads URL and URN entityIDs, upper-case hosts and query strings', () => {
    expect(entityHost('https://signon.rug.nl/nidp/saml2/metadata')).toBe('signon.rug.nl');
    expect(entityHost('https://IDP.UNIBO.IT/idp/shibboleth')).toBe('idp.unibo.it');
    expect(entityHost('https://idp.lu.se/saml?entity=main')).toBe('idp.lu.se');
    expect(entityHost('https://idp.example.org:8443/idp')).toBe('idp.example.org');
    expect(entityHost('urn:mace:incommon:uiuc.edu')).toBe('uiuc.edu');
    expect(entityHost('urn:mace:terena.org:nl:vu.nl')).toBe('vu.nl');
    expect(entityHost('urn:x-idp:local')).toBeUndefined();
  });

  it('keeps the labels and domains that name an institution', () => {
    expect(hostLabels('signon.rug.nl')).toEqual(['rug']);
    expect(hostLabels('login.ox.ac.uk')).toEqual(['ox']);
    expect(domainKeys('signon.rug.nl')).toEqual(['signon.rug.nl', 'rug.nl']);
    expect(domainKeys('login.ox.ac.uk')).toEqual(['login.ox.ac.uk', 'ox.ac.uk']);
  });

  it('reads the domain of an e-mail address or a bare domain', () => {
    expect(queryDomain(' Jan@Student.RUG.nl ')).toBe('student.rug.nl');
    expect(queryDomain('rug.nl')).toBe('rug.nl');
    expect(queryDomain('university of groningen')).toBeUndefined();
    expect(queryDomain('jan@')).toBeUndefined();
  });
});

describe('one typo, against the definition', () => {
  /** Optimal string alignment distance (Damerau: adjacent swaps count as one edit), by the textbook table. */
  function osa(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
    return d[a.length]![b.length]!;
  }

  it('agrees with the distance on every pair of short words over a small alphabet', () => {
    const words: string[] = [''];
    for (let len = 1; len <= 4; len++) {
      for (let k = 0; k < 3 ** len; k++) {
        let w = '';
        for (let x = k, i = 0; i < len; i++, x = Math.floor(x / 3)) w += 'abc'[x % 3];
        words.push(w);
      }
    }
    let disagreements = 0;
    // typoOf(a, b): some prefix of a (one letter shorter than b to one longer) is one edit from b,
    // and a does not start with b; the length it gives is such a prefix.
    for (const a of words) {
      for (const b of words) {
        let expected = false;
        for (let len = b.length - 1; len <= b.length + 1; len++)
          if (len >= 1 && len <= a.length && osa(a.slice(0, len), b) <= 1) expected = true;
        if (a.startsWith(b)) expected = false;
        const got = typoOf(a, b);
        if (got > 0 !== expected || (got > 0 && osa(a.slice(0, got), b) > 1)) disagreements++;
      }
    }
    expect(disagreements).toBe(0);
  });
});
