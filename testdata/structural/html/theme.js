export function applyTheme(name) {
  document.documentElement.dataset.theme = name;
  console.log("theme", name);
}
