import assert from 'node:assert/strict';
import { type AgentTextView, viewAgentText } from './agent-text-view.ts';
import type { PbxWorld } from './world.ts';
import { parseXmlDocument, type XmlElement } from './xml-document.ts';

/** The agent text most recently received from the data endpoint. */
export function latestAgentText(world: PbxWorld): string {
  const text = world.latest.get('agent text');
  assert.ok(text !== undefined, 'no agent text received in this scenario');
  return text;
}

export function latestAgentView(world: PbxWorld): AgentTextView {
  return viewAgentText(latestAgentText(world));
}

/** The JSON snapshot most recently received, parsed. */
export function latestJson(world: PbxWorld): unknown {
  const text = world.latest.get('JSON snapshot');
  assert.ok(text !== undefined, 'no JSON snapshot received in this scenario');
  return JSON.parse(text);
}

/** The root `pbx` of the XML snapshot most recently received. */
export function latestXmlRoot(world: PbxWorld): XmlElement {
  const text = world.latest.get('XML snapshot');
  assert.ok(text !== undefined, 'no XML snapshot received in this scenario');
  const parsed = parseXmlDocument(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.root;
}
