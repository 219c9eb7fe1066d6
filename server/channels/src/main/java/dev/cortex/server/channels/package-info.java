/**
 * Chat platforms as front doors of the agent server. Each adapter turns a platform's messages into
 * messages of sessions on that platform's channels ({@code slack:C0123[/thread]}), once each, and
 * posts what the session's agent says back.
 */
package dev.cortex.server.channels;
