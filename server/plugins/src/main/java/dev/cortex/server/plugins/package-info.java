/**
 * Portable plugin packages: {@link dev.cortex.server.plugins.PluginCatalog} reads and checks them,
 * {@link dev.cortex.server.plugins.PluginServer.Summary} is all of a server that leaves the agent
 * server.
 */
package dev.cortex.server.plugins;
