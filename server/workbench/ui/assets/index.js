// Placeholder page: shows whether this browser is signed in.
const app = document.getElementById("app");
const me = await fetch("/api/ui/me");
app.textContent = me.ok
  ? "Signed in."
  : "Not signed in: run 'cortex ui' and open the link it prints.";
