// Reads the one-time secret from the fragment, drops it from the address bar, and trades it
// for a cookie session.
const status = document.getElementById("status");
const secret = location.hash.slice(1);
history.replaceState(null, "", location.pathname);
if (!secret) {
  status.textContent = "Sign in with the link that 'cortex ui' prints.";
} else {
  const answer = await fetch("/api/ui/signin", {
    method: "POST",
    headers: { "content-type": "application/json", "x-cortex-csrf": "signin" },
    body: JSON.stringify({ link: secret }),
  });
  if (answer.ok) {
    location.replace("/");
  } else {
    status.textContent = "This link is wrong, expired or already used: run 'cortex ui' for a new one.";
  }
}
