// The page under test: React StrictMode in development (mount, unmount, mount again before the socket opens) and
// a component that subscribes to a Realtime channel on mount and removes it on unmount, as apps do.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '@supabase/supabase-js';

const params = new URLSearchParams(location.search);
const supabase = createClient(params.get('url'), params.get('key'), { auth: { persistSession: false } });

function Room({ topic }) {
  const [status, setStatus] = useState('idle');
  useEffect(() => {
    const channel = supabase.channel(topic).subscribe((s) => setStatus(s));
    return () => {
      supabase.removeChannel(channel);
    };
  }, [topic]);
  return <p id="status">{status}</p>;
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <Room topic={params.get('topic') ?? 'room'} />
  </StrictMode>,
);
