// Where a self-contained viewer piece plugs in, in one place: add a component to a list here and
// the viewer shows it, with no other file to touch.
//   - sidebarTools: buttons in the sidebar's header (beside New chat);
//   - dialogPanels: panels under a dialog's header, given the dialog's id;
//   - pages: whole pages at /<name> (the server serves index.html there once the name is in
//     src/server/web-viewer.ts's VIEWER_PAGES).
import type { ComponentType } from "react";
import { ImportButton } from "./components/import/ImportButton.js";
import { SharePanel } from "./components/share/SharePanel.js";
import { UsagePage } from "./components/usage/UsagePage.js";

export const sidebarTools: ComponentType[] = [ImportButton];

export const dialogPanels: ComponentType<{ dialogId: string }>[] = [SharePanel];

export const pages: Record<string, ComponentType> = { usage: UsagePage };
