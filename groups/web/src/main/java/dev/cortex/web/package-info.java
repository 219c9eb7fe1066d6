/**
 * The {@code web} group, served only to sessions of the web workbench ({@code web:} channels):
 * files, views and decisions delivered into the chat, and boards.
 */
package dev.cortex.web;
