// POST /start, from the form on your page:
//   <form method="post" action="/start"><select name="affiliation">…</select><button>Validate</button></form>
import { validationRoutes } from '@/lib/affiliation';

export const runtime = 'nodejs'; // or 'edge': the SDK runs on both
export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return (await validationRoutes()).start(request);
}
