"""Supabase's official Python Realtime client (PyPI `realtime`, vsn 1.0.0 JSON objects) against the gateway.

Usage: realtime_client.py URL ANON_KEY USER_TOKEN DB_URL. Runs each scenario and prints one JSON line per scenario
({"name": …, "ok": bool, "detail": …}); tests/js/realtime/python.test.mjs asserts on them.
"""
import asyncio
import json
import subprocess
import sys

from realtime import AsyncRealtimeClient

URL, ANON, USER_TOKEN, DB_URL = sys.argv[1:5]
WS = URL.replace("http", "ws", 1) + "/realtime/v1"


def sql(statement):
    subprocess.run(["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", DB_URL, "-c", statement], check=True)


async def until(predicate, seconds=8.0):
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def joined(channel):
    states = []
    await channel.subscribe(lambda state, err: states.append((str(state), str(err) if err else None)))
    await until(lambda: states, 10)
    return states


async def broadcast_self_ack(client):
    ch = client.channel("py-room", {"config": {"broadcast": {"self": True, "ack": True}}})
    got = []
    ch.on_broadcast("msg", lambda m: got.append(m))
    states = await joined(ch)
    await ch.send_broadcast("msg", {"x": 1})
    ok = await until(lambda: got)
    await ch.unsubscribe()
    return ok and got[0]["payload"] == {"x": 1}, {"states": states, "got": got}


async def presence_sync(client):
    ch = client.channel("py-lobby", {"config": {"presence": {"key": "py"}}})
    synced = []
    ch.on_presence_sync(lambda: synced.append(True))
    await joined(ch)
    await ch.track({"online": True})
    ok = await until(lambda: "py" in ch.presence_state())
    state = ch.presence_state()
    await ch.untrack()
    gone = await until(lambda: "py" not in ch.presence_state())
    await ch.unsubscribe()
    return ok and gone and bool(synced), {"state": str(state)}


async def postgres_changes(client):
    ch = client.channel("py-changes")
    got, system = [], []
    ch.on_postgres_changes("INSERT", lambda p: got.append(p), table="rt_notes", schema="public", filter="n=eq.7")
    ch.on_system(lambda m: system.append(m))
    states = await joined(ch)
    await until(lambda: system, 10)
    sql("insert into public.rt_notes values (7001, 'py', 7), (7002, 'py', 8)")
    ok = await until(lambda: got)
    await asyncio.sleep(0.3)
    await ch.unsubscribe()
    record = got[0]["data"]["record"] if got else None
    return ok and len(got) == 1 and record["id"] == 7001, {"states": states, "system": str(system), "record": record}


async def private_channel():
    client = AsyncRealtimeClient(WS, USER_TOKEN, auto_reconnect=False)
    await client.connect()
    ch = client.channel("member:py", {"config": {"private": True, "broadcast": {"self": True, "ack": True}}})
    got = []
    ch.on_broadcast("msg", lambda m: got.append(m))
    states = await joined(ch)
    await ch.send_broadcast("msg", {"private": True})
    ok = await until(lambda: got)
    refused = client.channel("staff:py", {"config": {"private": True}})
    refused_states = await joined(refused)
    await client.close()
    refused_ok = refused_states and "CHANNEL_ERROR" in refused_states[0][0] and "Unauthorized" in (refused_states[0][1] or "")
    return ok and bool(refused_ok), {"states": states, "refused": refused_states}


async def main():
    client = AsyncRealtimeClient(WS, ANON, auto_reconnect=False)
    await client.connect()
    for name, scenario in [
        ("broadcast_self_ack", lambda: broadcast_self_ack(client)),
        ("presence_sync", lambda: presence_sync(client)),
        ("postgres_changes", lambda: postgres_changes(client)),
        ("private_channel", private_channel),
    ]:
        try:
            ok, detail = await asyncio.wait_for(scenario(), 30)
        except Exception as e:  # a failed scenario is reported, not raised
            ok, detail = False, repr(e)
        print(json.dumps({"name": name, "ok": bool(ok), "detail": detail}, default=str), flush=True)
    await client.close()


asyncio.run(main())
