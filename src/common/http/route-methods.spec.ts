import express from 'express';
import { RouteMethodIndex } from './route-methods.js';

function appWith(routes: Array<[method: 'get' | 'post' | 'delete', path: string]>) {
  const app = express();
  for (const [method, path] of routes) app[method](path, (_req, res) => res.end());
  return app;
}

describe('RouteMethodIndex', () => {
  it("answers a path's methods, the same when asked again, and none for an unknown path", () => {
    const index = new RouteMethodIndex();
    index.loadFrom(
      appWith([
        ['post', '/v1/recetas'],
        ['get', '/v1/recetas'],
        ['delete', '/v1/recetas/:id/reserva'],
      ]),
    );
    expect([...index.allowedMethods('/v1/recetas')].sort()).toEqual(['GET', 'POST']);
    expect([...index.allowedMethods('/v1/recetas')].sort()).toEqual(['GET', 'POST']);
    expect(index.allowedMethods('/v1/recetas/9/reserva')).toEqual(['DELETE']);
    expect(index.allowedMethods('/v1/recetas/9/reserva/')).toEqual(['DELETE']);
    expect(index.allowedMethods('/v1/nada')).toEqual([]);
  });

  it("a literal segment is its route's, not a parameter's: a word is never an id", () => {
    const index = new RouteMethodIndex();
    index.loadFrom(
      appWith([
        ['post', '/v1/recetas/registrar'],
        ['get', '/v1/recetas/listar'],
        ['get', '/v1/recetas/:id_transaccion'],
        ['post', '/v1/recetas/:id_transaccion/anular'],
        ['post', '/v1/dispensas/reservas'],
        ['delete', '/v1/dispensas/reservas/:reserva_id'],
        ['get', '/v1/dispensas/:id_dispensa'],
      ]),
    );
    expect(index.allowedMethods('/v1/recetas/registrar')).toEqual(['POST']);
    expect(index.allowedMethods('/v1/recetas/listar')).toEqual(['GET']);
    expect(index.allowedMethods('/v1/recetas/1042')).toEqual(['GET']);
    expect(index.allowedMethods('/v1/recetas/1042/anular')).toEqual(['POST']);
    expect(index.allowedMethods('/v1/dispensas/reservas')).toEqual(['POST']);
    expect(index.allowedMethods('/v1/dispensas/reservas/')).toEqual(['POST']);
    expect(index.allowedMethods('/v1/dispensas/reservas/9f2c')).toEqual(['DELETE']);
    expect(index.allowedMethods('/v1/dispensas/9f2c')).toEqual(['GET']);
  });

  it('forgets what it answered when the routes are loaded again', () => {
    const index = new RouteMethodIndex();
    index.loadFrom(appWith([['get', '/v1/a']]));
    expect(index.allowedMethods('/v1/a')).toEqual(['GET']);
    index.loadFrom(appWith([['post', '/v1/a']]));
    expect(index.allowedMethods('/v1/a')).toEqual(['POST']);
  });

  it('answers past its memory: many distinct and very long paths', () => {
    const index = new RouteMethodIndex();
    index.loadFrom(appWith([['post', '/v1/recetas/:id/anular']]));
    for (let i = 0; i < 5_000; i++)
      expect(index.allowedMethods(`/v1/recetas/${i}/anular`)).toEqual(['POST']);
    const long = `/v1/recetas/${'9'.repeat(10_000)}/anular`;
    expect(index.allowedMethods(long)).toEqual(['POST']);
    expect(index.allowedMethods(long)).toEqual(['POST']);
  });

  it('hands out answers nobody can change', () => {
    const index = new RouteMethodIndex();
    index.loadFrom(appWith([['get', '/v1/a']]));
    expect(() => (index.allowedMethods('/v1/a') as string[]).push('DELETE')).toThrow(TypeError);
    expect(index.allowedMethods('/v1/a')).toEqual(['GET']);
  });
});
