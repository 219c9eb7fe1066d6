/**
 * The agent server's web workbench: its own connector, sign-in by one-time link and cookie, the
 * guard in front of every page and API call, the journal of events the pages follow by server-sent
 * events, and the page itself (served from {@code ui/}).
 */
package dev.cortex.server.workbench;
